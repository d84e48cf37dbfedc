"""The activities a worker registers, bound to its apps and session store.

Runs on: activity side (worker process).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from temporalio import activity

from adk.apps.app import App, plugin_manager_of
from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.sessions.base_session_service import BaseSessionService
from workflows import names
from workflows.contracts import (
    AgentCallbackInput,
    AgentCallbackOutput,
    AnswerHookInput,
    AnswerHookOutput,
    BeginAgentToolInput,
    BeginInput,
    BeginOutput,
    CodeExecutionInput,
    CodeExecutionOutput,
    CompactionInput,
    CompactionOutput,
    CustomViewInput,
    CustomViewOutput,
    FinishAgentToolInput,
    ModelStepInput,
    ModelStepOutput,
    NodeRunInput,
    NodeRunOutput,
    PersistEventsInput,
    RunHookInput,
    StepRef,
    ToolCallInput,
    ToolCallOutput,
)

from ._agents import agent_callback, begin_agent_tool, custom_agent_view, finish_agent_tool
from ._begin import answer_hook, begin_invocation, run_hook
from ._code_execution import execute_code
from ._compaction import compact_events
from ._graph import run_node
from ._model_step import invocation_context, model_step
from ._on_event import record
from ._support import find_app, heartbeating, named_ref, transient_retries
from ._tool_call import tool_call


class AdkActivities:
    """Activities over a set of apps, one session store and one artifact service (if any)."""

    def __init__(
        self,
        apps: Mapping[str, App],
        session_service: BaseSessionService,
        artifact_service: BaseArtifactService | None = None,
        *,
        inline_workflow_agents: bool = False,
    ) -> None:
        self.apps = apps
        self.inline_workflow_agents = inline_workflow_agents
        """Recorded by each invocation's begin: RunContext.inline_workflow_agents."""
        self.session_service = session_service
        self.artifact_service = artifact_service
        """What tools, callbacks and plugins reach through their contexts (google-adk's
        "Artifact service is not initialized." when None)."""
        self._published: set[str] = set()
        """Apps whose root agent this process has published to the store."""

    @activity.defn(name=names.BEGIN_INVOCATION)
    async def begin_invocation(self, input: BeginInput) -> BeginOutput:
        begun = await begin_invocation(
            self.apps, self.session_service, input, self.artifact_service
        )
        await self._publish_root_agent(input.invocation.session.app_name)
        begun.inline_workflow_agents = self.inline_workflow_agents
        return begun

    async def _publish_root_agent(self, app_name: str) -> None:
        """Once per app and process: starters then name the agent at start (no
        search-attribute update). Best effort: a failure only costs that update."""
        if app_name in self._published:
            return
        try:  # (concurrent first begins may each write: the same row, harmless)
            await self.session_service.set_app_root_agent(
                app_name=app_name, agent_name=self.apps[app_name].root_agent.name
            )
        except Exception as error:  # a later begin tries again
            activity.logger.warning("Could not publish the root agent of %s: %s", app_name, error)
            return
        self._published.add(app_name)

    @activity.defn(name=names.MODEL_STEP)
    async def model_step(self, input: ModelStepInput) -> ModelStepOutput:
        named_ref(input.ref)
        async with heartbeating():
            with transient_retries():
                return await model_step(
                    self.apps, self.session_service, input, self.artifact_service
                )

    @activity.defn(name=names.TOOL_CALL)
    async def tool_call(self, input: ToolCallInput) -> ToolCallOutput:
        named_ref(input.ref)
        async with heartbeating():
            with transient_retries():
                return await tool_call(
                    self.apps, self.session_service, input, self.artifact_service
                )

    @activity.defn(name=names.RUN_NODE)
    async def run_node(self, input: NodeRunInput) -> NodeRunOutput:
        """One run of a workflow graph's node (its code: user code)."""
        named_ref(input.ref)
        async with heartbeating():
            return await run_node(self.apps, self.session_service, input, self.artifact_service)

    @activity.defn(name=names.EXECUTE_CODE)
    async def execute_code(self, input: CodeExecutionInput) -> CodeExecutionOutput:
        named_ref(input.ref)
        async with heartbeating():
            return await execute_code(self.apps, self.session_service, input, self.artifact_service)

    @activity.defn(name=names.PERSIST_EVENTS)
    async def persist_events(self, input: PersistEventsInput) -> None:
        """Persist what the workflow still holds (idempotent upserts)."""
        if not input.pending_events:
            return
        ref = input.session
        session = await self.session_service.get_step_session(  # the store's cached read
            app_name=ref.app_name, user_id=ref.user_id, session_id=ref.session_id, event_ids=[]
        )
        if session is None:
            return
        app = find_app(self.apps, ref.app_name)
        step = StepRef(
            session=ref,
            invocation_id=input.invocation_id,
            agent_name="",
            run_config=input.run_config,
        )
        hook_ctx = functools.partial(
            invocation_context,
            self.session_service,
            session,
            step,
            app.root_agent,
            plugin_manager_of(app),
            self.artifact_service,
        )
        for event in input.pending_events:
            await record(
                self.session_service,
                session,
                event,
                plugin_manager_of(app),
                hook_ctx,
                input.run_config,
            )

    @activity.defn(name=names.RUN_HOOK)
    async def run_hook(self, input: RunHookInput) -> None:
        await run_hook(self.apps, self.session_service, input, self.artifact_service)

    @activity.defn(name=names.ANSWER_HOOK)
    async def answer_hook(self, input: AnswerHookInput) -> AnswerHookOutput:
        return await answer_hook(self.apps, self.session_service, input, self.artifact_service)

    @activity.defn(name=names.COMPACT_EVENTS)
    async def compact_events(self, input: CompactionInput) -> CompactionOutput:
        async with heartbeating():
            return await compact_events(self.apps, self.session_service, input)

    @activity.defn(name=names.AGENT_CALLBACK)
    async def agent_callback(self, input: AgentCallbackInput) -> AgentCallbackOutput:
        named_ref(input.ref)
        return await agent_callback(self.apps, self.session_service, input, self.artifact_service)

    @activity.defn(name=names.CUSTOM_AGENT_VIEW)
    async def custom_agent_view(self, input: CustomViewInput) -> CustomViewOutput:
        return await custom_agent_view(self.session_service, input)

    @activity.defn(name=names.BEGIN_AGENT_TOOL)
    async def begin_agent_tool(self, input: BeginAgentToolInput) -> bool:
        return await begin_agent_tool(self.apps, self.session_service, input, self.artifact_service)

    @activity.defn(name=names.FINISH_AGENT_TOOL)
    async def finish_agent_tool(self, input: FinishAgentToolInput) -> ToolCallOutput:
        return await finish_agent_tool(
            self.apps, self.session_service, input, self.artifact_service
        )

    def all(self) -> list[Callable[..., Any]]:
        return [
            self.begin_invocation,
            self.model_step,
            self.tool_call,
            self.run_node,
            self.execute_code,
            self.persist_events,
            self.agent_callback,
            self.begin_agent_tool,
            self.finish_agent_tool,
            self.run_hook,
            self.answer_hook,
            self.compact_events,
            self.custom_agent_view,
        ]
