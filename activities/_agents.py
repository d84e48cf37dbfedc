"""Agent-level activities: before/after agent callbacks, and AgentTool sessions.

Runs on: activity side (worker process).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.genai import types
from temporalio.exceptions import ApplicationError

from adk.agents.base_agent import call_maybe_async
from adk.agents.callback_context import CallbackContext
from adk.agents.invocation_context import InvocationContext
from adk.agents.llm_agent import LlmAgent
from adk.agents.run_config import RunConfig
from adk.apps.app import App, plugin_manager_of
from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.events._internal_metadata import apply_run_metadata
from adk.events.event import Event, NodeInfo
from adk.events.event_actions import EventActions
from adk.plugins.plugin_manager import PluginManager
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.session import Session
from adk.sessions.state import State
from adk.tools.agent_tool import GROUNDING_METADATA_KEY, AgentTool
from workflows.contracts import (
    AgentCallbackInput,
    AgentCallbackOutput,
    AgentToolCall,
    BeginAgentToolInput,
    CustomViewInput,
    CustomViewOutput,
    FinishAgentToolInput,
    SessionRef,
    ToolCallOutput,
)

from . import _custom_metadata as custom_metadata
from ._artifacts import artifact_service_for, reusing_earlier_saves
from ._memory import memory_service
from ._model_step import invocation_context, load_session
from ._on_event import before_run, record
from ._spec import static_tools
from ._support import (
    check_payload_size,
    find_agent,
    find_app,
    find_llm_agent,
    raised,
    retried,
    user_code,
)


async def agent_callback(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: AgentCallbackInput,
    artifacts: BaseArtifactService | None = None,
) -> AgentCallbackOutput:
    """Run the agent's before/after callbacks; record an event if they said or changed something."""
    ref = input.ref
    app = find_app(apps, ref.session.app_name)
    agent = find_agent(app, ref.agent_name)
    plugins = plugin_manager_of(app)
    session = await load_session(store, ref, records=[input.event_id])
    ctx = invocation_context(
        store, session, ref, agent, plugins, artifacts, app.resumability_config
    )
    metadata_before = custom_metadata.snapshot(ctx)
    ctx.artifact_service = await reusing_earlier_saves(
        ctx.artifact_service, store, ref, [input.event_id]
    )
    actions = EventActions()
    callback_context = CallbackContext(ctx, event_actions=actions)
    callbacks = (
        agent.canonical_before_agent_callbacks
        if input.when == "before"
        else agent.canonical_after_agent_callbacks
    )
    run_plugins = getattr(plugins, f"run_{input.when}_agent_callback")
    with user_code(f"a plugin's {input.when}_agent_callback"):  # the plugins' first
        content = await run_plugins(agent=agent, callback_context=callback_context)
    what = f"{input.when}_agent_callback of agent {agent.name}"
    for callback in callbacks if not content else []:
        with user_code(what):
            content = await call_maybe_async(callback, callback_context=callback_context)
            if content and not isinstance(content, types.Content):
                raise TypeError(f"it returned a {type(content).__name__}, not a types.Content")
        if content:
            break
    actions = callback_context.actions  # records writes into containers read from state
    temp = {k: v for k, v in actions.state_delta.items() if k.startswith(State.TEMP_PREFIX)}
    changed = any(not k.startswith(State.TEMP_PREFIX) for k in actions.state_delta)
    # before: content (or the flag) ends this agent's run (ADK: end_invocation)
    ended = input.when == "before" and (bool(content) or ctx.end_invocation)
    metadata = custom_metadata.written(ctx, metadata_before)
    if not content and not changed and not actions.artifact_delta:
        if retried():  # an earlier attempt's event is not this one's
            await store.retract_event(session, input.event_id)
        return AgentCallbackOutput(temp_delta=temp, end_invocation=ended, custom_metadata=metadata)
    event = Event(
        id=input.event_id,
        timestamp=input.timestamp,
        invocation_id=ref.invocation_id,
        author=agent.name,
        branch=ref.branch,
        content=content or None,
        actions=actions,
        node_info=NodeInfo(path=ref.node_path),
    )
    if isinstance(agent, LlmAgent) and input.when == "before":  # 2.13: not after_agent's
        with user_code(f"saving the output of agent {agent.name}"):
            agent._maybe_save_output_to_state(event)
    event = await record(store, session, event, plugins, lambda: ctx, ctx.run_config)
    return AgentCallbackOutput(
        event=event, temp_delta=temp, end_invocation=ended, custom_metadata=metadata
    )


async def custom_agent_view(store: BaseSessionService, input: CustomViewInput) -> CustomViewOutput:
    """What a custom agent's orchestration reads (workflows/_custom.py): when it starts,
    the state, the last event's id and the user message; after a sub-agent, the events
    of its invocation and branch recorded since the last one it saw."""
    ref = input.session
    session = await store.get_step_session(  # the store's cached read
        app_name=ref.app_name, user_id=ref.user_id, session_id=ref.session_id, event_ids=[]
    )
    if session is None:
        raise ApplicationError(
            f"Session {ref.session_id} is gone.", type="SessionNotFound", non_retryable=True
        )
    last = session.events[-1].id if session.events else None
    if input.initial:
        user = next(
            (
                e.content
                for e in session.events
                if e.invocation_id == input.invocation_id and e.author == "user"
            ),
            None,
        )
        state = {k: v for k, v in session.state.items() if not k.startswith(State.TEMP_PREFIX)}
        output = CustomViewOutput(state=state, last_event_id=last, user_content=user)
        check_payload_size(output, "The session state and message a custom agent reads")
        return output
    ids = [e.id for e in session.events]
    if input.after_event_id not in ids:
        raise ApplicationError(
            f"Event {input.after_event_id} is not in session {ref.session_id} any more.",
            type="EventNotFound",
            non_retryable=True,
        )
    since = session.events[ids.index(input.after_event_id) + 1 :]
    events = [
        e
        for e in since
        if e.invocation_id == input.invocation_id and _in_branch(e.branch, input.branch)
    ]
    output = CustomViewOutput(events=events, last_event_id=events[-1].id if events else None)
    check_payload_size(output, "The events a custom agent's sub-agent recorded")
    return output


def _in_branch(branch: str | None, ours: str | None) -> bool:
    """Recorded on `ours` or a branch below it (a ParallelAgent the sub-agent ran)."""
    return ours is None or branch == ours or (branch or "").startswith(f"{ours}.")


async def _agent_tool(apps: Mapping[str, App], call: AgentToolCall) -> AgentTool:
    parent = find_llm_agent(find_app(apps, call.parent.session.app_name), call.parent.agent_name)
    for tool in static_tools(parent):  # AgentTools are the agent's own (never listed)
        if isinstance(tool, AgentTool) and tool.name == call.function_call.name:
            return tool
    raise ValueError(f"Agent {parent.name} has no AgentTool {call.function_call.name}.")


async def begin_agent_tool(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: BeginAgentToolInput,
    artifacts: BaseArtifactService | None = None,
) -> bool:
    """Create the AgentTool's own session (a copy of the caller's state) and its request;
    True when a plugin's before_run_callback answered instead of the agent."""
    parent = input.call.parent.session
    tool = await _agent_tool(apps, input.call)
    state = await store.get_state(
        app_name=parent.app_name, user_id=parent.user_id, session_id=parent.session_id
    )
    session = await store.get_session(
        app_name=parent.app_name, user_id=parent.user_id, session_id=input.session_id
    )
    if session is None:
        copied = {k: v for k, v in (state or {}).items() if not k.startswith("_adk")}
        session = await store.create_session(
            app_name=parent.app_name,
            user_id=parent.user_id,
            session_id=input.session_id,
            state=copied,
        )
    try:
        request = tool.request_text(dict(input.call.function_call.args or {}))
    except Exception as error:  # the model's arguments: the tool's exception (ADK)
        raise raised(error, f"calling agent tool {tool.name}") from None
    message = types.Content(role="user", parts=[types.Part(text=request)])
    # google-adk 2.13 runs the agent in a Runner of its own, with the caller's plugins
    plugins = plugin_manager_of(find_app(apps, parent.app_name))
    ctx = _agent_tool_context(
        store, session, input.invocation_id, tool, plugins, input.call.parent.run_config
    )
    ctx.artifact_service = _callers(artifacts, input.call.parent.session)
    ctx.user_content = message
    with user_code("a plugin's on_user_message_callback"):
        replaced = await plugins.run_on_user_message_callback(
            invocation_context=ctx, user_message=message
        )
    if replaced is not None:
        message = ctx.user_content = replaced
    user_event = Event(
        id=input.user_event_id,
        timestamp=input.timestamp,
        invocation_id=input.invocation_id,
        author="user",
        content=message,
    )
    await store.append_event(session, apply_run_metadata(user_event, ctx.run_config))
    # a plugin's answer ends the agent's run: it does not start
    return await before_run(store, session, plugins, ctx, input.user_event_id)


async def finish_agent_tool(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: FinishAgentToolInput,
    artifacts: BaseArtifactService | None = None,
) -> ToolCallOutput:
    """Persist the run's last events; its final answer (and state written) is the response."""
    parent = input.call.parent.session
    ref = SessionRef(app_name=parent.app_name, user_id=parent.user_id, session_id=input.session_id)
    session = await store.get_session(
        app_name=ref.app_name, user_id=ref.user_id, session_id=ref.session_id
    )
    assert session is not None
    app = find_app(apps, parent.app_name)
    tool = await _agent_tool(apps, input.call)
    plugins = plugin_manager_of(app)
    ctx = _agent_tool_context(
        store, session, input.invocation_id, tool, plugins, input.call.parent.run_config
    )
    ctx.artifact_service = _callers(artifacts, input.call.parent.session)
    for event in input.pending_events:
        await record(store, session, event, plugins, lambda: ctx, ctx.run_config)
    with user_code("a plugin's after_run_callback"):  # the end of the agent's own run
        await plugins.run_after_run_callback(invocation_context=ctx)
    delta: dict[str, Any] = {}
    saved: dict[str, int] = {}  # what the agent saved is the caller's (2.13 forwards it)
    for event in session.events:
        if event.invocation_id == input.invocation_id:
            delta.update(event.actions.state_delta)
            saved.update(event.actions.artifact_delta)
    actions = EventActions(
        state_delta=delta,
        artifact_delta=saved,
        skip_summarization=True if tool.skip_summarization else None,
    )
    run = [e for e in session.events if e.invocation_id == input.invocation_id]
    unresolved = tool.unresolved_error([e for e in run if e.author != "user"])
    if unresolved is not None:
        actions.skip_summarization = False
        return ToolCallOutput(response={"result": unresolved}, actions=actions)
    # an answer its output_schema refuses is the tool's exception, as in google-adk 2.13
    # (the caller's on_tool_error callbacks may turn it into a result; else it fails)
    with user_code(f"validating the answer of agent {tool.name} against its output_schema"):
        result = tool.result_from_events([e for e in run if e.author != "user"])
    response = result if isinstance(result, dict) else {"result": result}
    grounding = tool.grounding_metadata([e for e in run if e.author != "user"])
    if tool.propagate_grounding_metadata and grounding is not None:
        # google-adk 2.13: for the caller's later responses in this invocation (temp:)
        actions.state_delta[GROUNDING_METADATA_KEY] = grounding.model_dump(
            mode="json", exclude_none=True
        )
    return ToolCallOutput(
        response=response, actions=actions, display_text=tool.display_text(result, response)
    )


def _callers(
    artifacts: BaseArtifactService | None, caller: SessionRef
) -> BaseArtifactService | None:
    """The artifact service of an AgentTool's run: its caller's session's artifacts."""
    scope = caller.artifact_session or caller.session_id
    return artifact_service_for(artifacts, caller.model_copy(update={"artifact_session": scope}))


def _agent_tool_context(
    store: BaseSessionService,
    session: Session,
    invocation_id: str,
    tool: AgentTool,
    plugins: PluginManager,
    run_config: RunConfig | None,
) -> InvocationContext:
    """The context of an AgentTool's own run (google-adk 2.13 runs it in a Runner of its
    own, with the caller's plugins and RunConfig), for the plugins' run hooks."""
    return InvocationContext(
        memory_service=memory_service(),
        session_service=store,
        invocation_id=invocation_id,
        agent=tool.agent,
        session=session,
        plugin_manager=plugins,
        run_config=run_config or RunConfig(),
    )
