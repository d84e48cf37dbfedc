"""Model-step activity: build the LlmRequest from the session store, call the model, record the event.

Runs on: activity side (worker process). Input is a reference (session,
invocation, agent, branch), never the conversation: history stays linear.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Mapping, Sequence
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
from adk.events.event import Event
from adk.events.event_actions import EventActions
from adk.flows.llm_flows import code_execution, nl_planning
from adk.flows.llm_flows._ownership import is_ours
from adk.flows.llm_flows.functions import populate_client_function_call_id
from adk.flows.llm_flows.pipeline import build_llm_request
from adk.models._errors import classify_model_error
from adk.models.base_llm import BaseLlm
from adk.models.llm_request import LlmRequest
from adk.models.llm_response import LlmResponse
from adk.plugins.plugin_manager import PluginManager
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.session import Session
from adk.sessions.state import State
from adk.tools.agent_tool import GROUNDING_METADATA_KEY
from workflows.contracts import CallPlan, ModelStepInput, ModelStepOutput, StepRef

from . import _custom_metadata as custom_metadata
from ._artifacts import artifact_service_for, reusing_earlier_saves
from ._compaction import compact_before_model
from ._memory import memory_service
from ._on_event import on_event, record
from ._spec import tool_kind, tool_options, touches_state
from ._support import (
    check_payload_size,
    find_app,
    find_llm_agent,
    last_attempt,
    model_error,
    retried,
    user_code,
)


async def load_session(store: BaseSessionService, ref: StepRef, records: Sequence[str]) -> Session:
    """The session as the step sees it. `records`: the ids of the events the step records.

    A retried step sees the session as its first attempt did: if an earlier attempt
    recorded those events (its result never reached the workflow), they are left out
    and their state writes are undone; this attempt's records replace them in full.
    """
    session = await store.get_step_session(
        app_name=ref.session.app_name,
        user_id=ref.session.user_id,
        session_id=ref.session.session_id,
        event_ids=records,
    )
    if session is None:
        raise ApplicationError(
            f"Session {ref.session.session_id} of user {ref.session.user_id} in app"
            f" {ref.session.app_name} does not exist (was it deleted while the invocation ran?).",
            type="SessionNotFound",
            non_retryable=True,
        )
    return session


def invocation_context(
    store: BaseSessionService,
    session: Session,
    ref: StepRef,
    agent: Any,
    plugins: PluginManager | None = None,
    artifacts: BaseArtifactService | None = None,
    resumability_config: Any = None,
) -> InvocationContext:
    """The context an agent run sees; `temp:` state overlaid for this invocation only."""
    session.state.update(ref.temp_state)
    user_content = next(
        (
            e.content
            for e in reversed(session.events)
            if e.author == "user" and e.invocation_id == ref.invocation_id
        ),
        None,
    )
    ctx = InvocationContext(
        memory_service=memory_service(),
        session_service=store,
        artifact_service=artifact_service_for(artifacts, ref.session),
        invocation_id=ref.invocation_id,
        branch=ref.branch,
        agent=agent,
        user_content=user_content,
        session=session,
        run_config=ref.run_config or RunConfig(),
        plugin_manager=plugins or PluginManager(),
        resumability_config=resumability_config,
    )
    custom_metadata.seed(ctx, ref)
    return ctx


async def model_step(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: ModelStepInput,
    artifacts: BaseArtifactService | None = None,
) -> ModelStepOutput:
    ref = input.ref
    app = find_app(apps, ref.session.app_name)
    agent = find_llm_agent(app, ref.agent_name)
    plugins = plugin_manager_of(app)
    side = {what: _side_event_id(input, what) for what in ("planning", "code_execution")}
    # (the compaction event is not among the step's records: a retried step finds it
    # and, the prompt now shorter, does not summarise again)
    session = await load_session(store, ref, records=[input.event_id, *side.values()])
    hook_ctx = functools.partial(invocation_context, store, session, ref, agent, plugins, artifacts)
    for pending in input.pending_events:  # what the workflow decided since the last step
        await record(store, session, pending, plugins, hook_ctx, ref.run_config)
    # google-adk 2.13 compacts before it builds the contents (its request processor)
    compaction_id = _side_event_id(input, "compaction")
    await compact_before_model(app, store, session, agent, ref, compaction_id)
    ctx = invocation_context(
        store, session, ref, agent, plugins, artifacts, app.resumability_config
    )
    metadata_before = custom_metadata.snapshot(ctx)
    ctx.artifact_service = await reusing_earlier_saves(
        ctx.artifact_service, store, ref, [input.event_id, *side.values()]
    )
    _model_of(agent)  # an unknown model name fails as ModelNotFound (2.13: the first processor)
    with user_code(f"building the request of agent {agent.name}"):
        llm_request = await build_llm_request(ctx, agent)
    actions = EventActions()
    callback_context = CallbackContext(ctx, event_actions=actions)
    response = await _run_model(agent, plugins, callback_context, llm_request)
    actions = callback_context.actions  # records writes into containers read from state
    with user_code(f"the planner of agent {agent.name}"):
        planned = nl_planning.process_response(ctx, agent, response)
    if planned is not None:  # google-adk 2.13: what the planner wrote, in an event first
        planned_event = _side_event(input, agent, side["planning"], planned.actions)
        await record(store, session, planned_event, plugins, lambda: ctx, ctx.run_config)
    with user_code(f"the code executor of agent {agent.name}"):
        images = await code_execution.save_generated_images(ctx, agent, response)
        executed = code_execution.process_response(agent, response)
    if executed is not None:
        executed.artifact_delta.update(images)
    if executed is not None:  # google-adk 2.13: the code executor's event, before the model's
        executed_event = _side_event(input, agent, side["code_execution"], executed)
        await record(store, session, executed_event, plugins, lambda: ctx, ctx.run_config)
    with user_code(f"the code executor of agent {agent.name}"):
        code = code_execution.code_block(ctx, agent, response)
    if code is not None:  # google-adk 2.13: the code in an event; the answer is not recorded
        output = await _code_step(input, agent, plugins, store, session, ctx, code, actions)
        output.custom_metadata = custom_metadata.written(ctx, metadata_before)
        return output
    if retried() and code_execution.runs_code(agent):  # an earlier attempt's, not this one's
        await store.retract_event(session, side["code_execution"])
    event = _finalize_event(input, agent, response, actions, llm_request)
    ended = ctx.end_invocation
    if event is None:
        if retried():  # an earlier attempt's event is not this one's
            await store.retract_event(session, input.event_id)
        return ModelStepOutput(
            event=None,
            temp_delta=_temp(actions),
            end_invocation=ended,
            custom_metadata=custom_metadata.written(ctx, metadata_before),
        )
    with user_code(f"saving the output of agent {agent.name}"):  # output_schema: fails at once
        agent._maybe_save_output_to_state(event)
    agent._maybe_accumulate_output(event, session.events)
    event = await on_event(plugins, lambda: ctx, event, ctx.run_config)  # recorded, returned
    temp_delta = _temp(event.actions)  # output_key may be a temp: key: the workflow keeps it
    output = ModelStepOutput(
        event=_named_by_workflow(event, ctx),
        calls=_plans(agent, plugins, event, llm_request),
        temp_delta=temp_delta,
        end_invocation=ended,
        custom_metadata=custom_metadata.written(ctx, metadata_before),
    )
    check_payload_size(output, f"The model of agent {agent.name}")
    await store.append_event(session, event)
    return output


async def _code_step(
    input: ModelStepInput,
    agent: LlmAgent,
    plugins: PluginManager,
    store: BaseSessionService,
    session: Session,
    ctx: InvocationContext,
    code: types.Content,
    actions: EventActions,
) -> ModelStepOutput:
    """The step found code to run: it records the event showing the code (the answer
    cut after its first code block) and leaves running it to the workflow.

    (google-adk 2.13 still records the answer after the result when it carries an
    error code or grounding metadata besides the code: not done here.)"""
    event = _side_event(input, agent, _side_event_id(input, "code_execution"), EventActions())
    event.content = code
    with user_code(f"saving the output of agent {agent.name}"):
        agent._maybe_save_output_to_state(event)
    agent._maybe_accumulate_output(event, session.events)
    output = ModelStepOutput(
        code_event=event, temp_delta=_temp(actions), end_invocation=ctx.end_invocation
    )
    check_payload_size(output, f"The model of agent {agent.name}")
    if retried():  # an earlier attempt may have recorded an answer as the model event
        await store.retract_event(session, input.event_id)
    recorded = await record(store, session, event, plugins, lambda: ctx, ctx.run_config)
    output.code_event = _named_by_workflow(recorded, ctx)
    return output


def _named_by_workflow(event: Event, ctx: InvocationContext) -> Event:
    """The event as the step's result: without the invocation id when it is the step's
    own, which the workflow fills in again (its workflow id names it; ~56 bytes of
    history per step). Histories from before carry it."""
    if event.invocation_id != ctx.invocation_id:
        return event
    return event.model_copy(update={"invocation_id": ""})


def _side_event_id(input: ModelStepInput, what: str) -> str:
    """The id of an event a response processor (`what`) records before the model's:
    derived from the step's, so a retried step records it once."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{input.event_id}/{what}"))


def _side_event(input: ModelStepInput, agent: LlmAgent, id: str, actions: EventActions) -> Event:
    return Event(
        id=id,
        timestamp=input.timestamp,
        invocation_id=input.ref.invocation_id,
        author=agent.name,
        branch=input.ref.branch,
        actions=actions,
        node_info={"path": input.ref.node_path},
    )


def _temp(actions: EventActions) -> dict[str, Any]:
    return {k: v for k, v in actions.state_delta.items() if k.startswith(State.TEMP_PREFIX)}


async def _run_model(
    agent: LlmAgent,
    plugins: PluginManager,
    callback_context: CallbackContext,
    llm_request: LlmRequest,
) -> LlmResponse:
    """before_model callbacks, the model call, after_model callbacks (ADK's order: the
    plugins' first; one that answers skips the agent's own)."""
    override = await before_model(agent, plugins, callback_context, llm_request)
    if override:
        return override
    # google-adk 2.13: the agent's name as a billing label, unless the request already has one
    llm_request.config.labels = dict(llm_request.config.labels or {})
    llm_request.config.labels.setdefault("adk_agent_name", agent.name)
    response = await _call_model(agent, plugins, callback_context, llm_request)
    if response is None:  # ADK: no response, no event, no after_model; the agent ends
        return LlmResponse()
    with user_code("a plugin's after_model_callback"):
        altered = await plugins.run_after_model_callback(
            callback_context=callback_context, llm_response=response
        )
    if altered:
        return _grounded(altered, llm_request, callback_context)
    for after in agent.canonical_after_model_callbacks:
        with user_code(f"after_model_callback of agent {agent.name}"):
            altered = await call_maybe_async(
                after, callback_context=callback_context, llm_response=response
            )
        if altered:
            return _grounded(altered, llm_request, callback_context)
    return _grounded(response, llm_request, callback_context)


async def before_model(
    agent: LlmAgent,
    plugins: PluginManager,
    callback_context: CallbackContext,
    llm_request: LlmRequest,
) -> LlmResponse | None:
    """The before_model callbacks on the request, the plugins' first; the first
    response one returns (which skips the model call), else None."""
    if agent.canonical_before_model_callbacks or any(
        # durable-adk's own plugins copy what they change; a plugin of the user's may
        # change anything
        not is_ours(type(plugin).before_model_callback)
        for plugin in plugins.plugins
    ):
        llm_request._own_contents()  # callbacks may change the contents in place
    with user_code("a plugin's before_model_callback"):
        override = await plugins.run_before_model_callback(
            callback_context=callback_context, llm_request=llm_request
        )
    if override:
        return override  # type: ignore[no-any-return]
    for callback in agent.canonical_before_model_callbacks:
        with user_code(f"before_model_callback of agent {agent.name}"):
            override = await call_maybe_async(
                callback, callback_context=callback_context, llm_request=llm_request
            )
        if override:
            return override  # type: ignore[no-any-return]
    return None


def _grounded(
    response: LlmResponse, llm_request: LlmRequest, callback_context: CallbackContext
) -> LlmResponse:
    """google-adk 2.13: when a tool of the agent propagates grounding metadata and the
    invocation holds some, every later response of the agent carries it."""
    if not any(
        getattr(tool, "propagate_grounding_metadata", False)
        for tool in llm_request.tools_dict.values()
    ):
        return response
    metadata = callback_context.state.get(GROUNDING_METADATA_KEY)
    if metadata:
        response.grounding_metadata = types.GroundingMetadata.model_validate(metadata)
    return response


def _model_of(agent: LlmAgent) -> BaseLlm:
    try:
        return agent.canonical_model
    except ValueError as error:
        raise ApplicationError(
            f"Agent {agent.name}: {error} Register a BaseLlm subclass for it in LLMRegistry"
            " or pass a model instance.",
            type="ModelNotFound",
            non_retryable=True,
        ) from error


async def _call_model(
    agent: LlmAgent,
    plugins: PluginManager,
    callback_context: CallbackContext,
    llm_request: LlmRequest,
) -> LlmResponse | None:
    llm = _model_of(agent)
    if not is_ours(type(llm).generate_content_async):
        llm_request._own_contents()  # a model of the user's may change them
    response: LlmResponse | None = None
    try:
        async for chunk in llm.generate_content_async(llm_request, stream=False):
            if not chunk.partial:
                response = chunk
    except Exception as error:
        info = classify_model_error(error)
        # `from None`: the provider's raw exception would be serialized into workflow
        # history as the cause, unredacted (it can echo the API key); the message of
        # model_error carries the redacted provider message.
        if info.retryable and not last_attempt():
            raise model_error(error, llm.model) from None
        llm_request._own_contents()  # the error callbacks may change them
        with user_code("a plugin's on_model_error_callback"):
            fallback = await plugins.run_on_model_error_callback(
                callback_context=callback_context, llm_request=llm_request, error=error
            )
        if fallback is not None:
            return fallback  # type: ignore[no-any-return]
        for callback in agent.canonical_on_model_error_callbacks:
            with user_code(f"on_model_error_callback of agent {agent.name}"):
                fallback = await call_maybe_async(
                    callback,
                    callback_context=callback_context,
                    llm_request=llm_request,
                    error=error,
                )
            if fallback is not None:
                return fallback  # type: ignore[no-any-return]
        raise model_error(error, llm.model, final=True) from None
    return response


def _finalize_event(
    input: ModelStepInput,
    agent: LlmAgent,
    response: LlmResponse,
    actions: EventActions,
    llm_request: LlmRequest,
) -> Event | None:
    """The model event, ids populated; None when there is nothing to record."""
    if not response.content and not response.error_code and not response.interrupted:
        return None
    event = Event.model_validate(
        {
            **response.model_dump(exclude_none=True),
            "id": input.event_id,
            "timestamp": input.timestamp,
            "invocation_id": input.ref.invocation_id,
            "author": agent.name,
            "branch": input.ref.branch,
            "actions": actions,
            "node_info": {"path": input.ref.node_path},
        }
    )
    calls = event.get_function_calls()
    if calls:
        populate_client_function_call_id(event)
        long_running = {
            call.id
            for call in calls
            if call.id
            and (tool := llm_request.tools_dict.get(call.name or ""))
            and tool.is_long_running
        }
        event.long_running_tool_ids = long_running  # ADK: a set, empty when none is
    return event


def _plans(
    agent: LlmAgent, plugins: PluginManager, event: Event, llm_request: LlmRequest
) -> list[CallPlan]:
    plans = []
    for call in event.get_function_calls():
        tool = llm_request.tools_dict.get(call.name or "")
        plans.append(
            CallPlan(
                id=call.id or "",
                name=call.name or "",
                kind=tool_kind(tool) if tool else "unknown",
                activity_options=tool_options(tool, agent.tool_activity_options) if tool else None,
                deadline_seconds=deadline.total_seconds()
                if (deadline := getattr(tool, "deadline", None))
                else None,
                shares_state=touches_state(agent, plugins, tool, call.name or ""),
            )
        )
    return plans
