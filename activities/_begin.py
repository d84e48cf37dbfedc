"""Begin activity: load or create the session, record the user message, pick the agent.

Runs on: activity side (worker process).
"""

from __future__ import annotations

import copy
import logging
import warnings
from collections.abc import Mapping
from typing import Any

import pydantic_core
from google.genai import types
from temporalio.exceptions import ApplicationError

from adk.agents._tree import all_agents
from adk.agents.base_agent import BaseAgent
from adk.agents.callback_context import CallbackContext
from adk.agents.invocation_context import InvocationContext
from adk.agents.llm_agent import LlmAgent
from adk.agents.run_config import RunConfig
from adk.apps.app import App, is_resumable, plugin_manager_of
from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.events._internal_metadata import apply_run_metadata
from adk.events.event import Event
from adk.events.event_actions import EventActions
from adk.events.tool_confirmation import ToolConfirmation
from adk.flows.agent_routing import (
    caller_keeping_the_turn,
    find_agent_to_run,
    find_matching_function_call,
)
from adk.flows.llm_flows._context_filters import apply_rewinds
from adk.plugins.plugin_manager import PluginManager
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.session import Session
from workflows.contracts import (
    AnswerHookInput,
    AnswerHookOutput,
    BeginInput,
    BeginOutput,
    ConfirmedCall,
    PendingRequest,
    RunHook,
    RunHookInput,
    SessionRef,
)
from workflows.errors import RaisedError, find_raised, rebuild

from ._graph import begin_graph
from ._memory import memory_service
from ._on_event import before_run
from ._spec import build_spec
from ._support import find_app, user_code

logger = logging.getLogger(__name__)


async def load_or_create_session(store: BaseSessionService, ref: SessionRef) -> Session:
    session = await store.get_step_session(  # the store's cached read (no retried records)
        app_name=ref.app_name, user_id=ref.user_id, session_id=ref.session_id, event_ids=[]
    )
    if session is None:
        session = await store.create_session(
            app_name=ref.app_name, user_id=ref.user_id, session_id=ref.session_id
        )
    return session


def check_message(input: BeginInput) -> None:
    message = input.invocation.new_message
    if message is None:
        return
    parts = message.parts or []
    if not any(p.text or p.inline_data or p.file_data or p.function_response for p in parts):
        raise ApplicationError(
            "The new message is empty: send some text (or a function response).",
            type="EmptyMessage",
            non_retryable=True,
        )
    if any(p.function_call for p in parts):
        raise ApplicationError(
            "User message cannot contain function calls.", type="InvalidMessage", non_retryable=True
        )


REQUEST_CONFIRMATION = "adk_request_confirmation"

RUN_HOOKS: tuple[RunHook, ...] = (
    "after_run_callback",
    "on_run_error_callback",
    "on_agent_error_callback",
    "on_user_message_callback",
    "before_run_callback",
)


async def begin_invocation(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: BeginInput,
    artifacts: BaseArtifactService | None = None,
) -> BeginOutput:
    invocation = input.invocation
    app = find_app(apps, invocation.session.app_name)
    plugins = plugin_manager_of(app)
    check_message(input)
    session = await load_or_create_session(store, invocation.session)
    if not isinstance(app.root_agent, BaseAgent):  # a google.adk.workflow Workflow
        return await begin_graph(app, store, input, session)
    if invocation.rewait:  # no run: the invocation's open calls, to wait for again
        return _reopen(app, session, invocation.invocation_id, plugins)
    ctx = _context(store, session, input, find_agent_to_run(session, app.root_agent), plugins)
    ctx.resumability_config = app.resumability_config
    ctx.artifact_service = artifacts
    message = invocation.new_message
    if message is not None and message.role != "user":  # as google.adk, before the plugins
        message = ctx.user_content = message.model_copy(update={"role": "user"})
    written: dict[str, Any] = {}
    replaced: types.Content | None = None
    if message is None:  # a run again (google-adk 2.13): the invocation's own message
        ctx.user_content = _first_message(session, invocation.invocation_id)
    else:
        before = _state_copy(session, plugins)
        try:
            with user_code("a plugin's on_user_message_callback"):
                replaced = await plugins.run_on_user_message_callback(
                    invocation_context=ctx, user_message=message
                )
            written = _written(session, before)
        except ApplicationError as failure:
            # google-adk 2.13 tells on_run_error when an LlmAgent is the root (its node
            # runner), not under another root (the message is handled before its run)
            if isinstance(app.root_agent, LlmAgent):
                await _notify_run_error(plugins, ctx, failure)
            raise
        if replaced is not None:  # google-adk 2.13: the plugin's message is the one recorded
            message = ctx.user_content = replaced
    try:
        if message is not None:
            message = ctx.user_content = await _save_input_blobs(ctx, app, message)
        # google-adk 2.13 routes a root LlmAgent's message before recording it, unless a
        # plugin replaced it (a function response's is routed as the last event)
        routed_before = isinstance(app.root_agent, LlmAgent) and replaced is None
        begun = await _begin(app, store, input, session, message, ctx, plugins, routed_before)
        begun.invocation_state = written
        return begun
    except ApplicationError as failure:  # google-adk 2.13: the setup's failures too
        await _notify_run_error(plugins, ctx, failure)
        raise


def _first_message(session: Session, invocation_id: str) -> types.Content | None:
    """The user message that started an invocation (not an answer)."""
    return next(
        (
            e.content
            for e in session.events
            if e.invocation_id == invocation_id
            and e.author == "user"
            and e.content
            and e.content.parts
            and not any(p.function_response for p in e.content.parts)
        ),
        None,
    )


def _state_copy(session: Session, plugins: PluginManager) -> dict[str, Any] | None:
    """The state before on_user_message, when a plugin has the hook (it may write into
    the session's state directly: see BeginOutput.invocation_state)."""
    if not plugins.overrides("on_user_message_callback"):
        return None
    return copy.deepcopy(session.state)


def _written(session: Session, before: dict[str, Any] | None) -> dict[str, Any]:
    """The keys written into the session's state directly since `before` (JSON values)."""
    if before is None:
        return {}
    written = {}
    for key, value in session.state.items():
        if key in before and before[key] == value:
            continue
        try:
            written[key] = pydantic_core.to_jsonable_python(value)
        except pydantic_core.PydanticSerializationError:
            logger.warning(
                "State key %r, written by an on_user_message_callback, is not JSON-serializable:"
                " later steps of the invocation will not see it.",
                key,
            )
    return written


async def _save_input_blobs(
    ctx: InvocationContext, app: App, message: types.Content
) -> types.Content:
    """google-adk 2.13's deprecated RunConfig.save_input_blobs_as_artifacts: each inline
    file of the message saved (`artifact_<invocation>_<index>`, no artifact_delta) and
    replaced by a text naming it. Not under an LlmAgent root: 2.13's runner for one (its
    node runner) ignores the setting."""
    if not (ctx.artifact_service and ctx.run_config.save_input_blobs_as_artifacts):
        return message
    if isinstance(app.root_agent, LlmAgent):
        return message
    warnings.warn(
        "The 'save_input_blobs_as_artifacts' parameter is deprecated. Use"
        " SaveFilesAsArtifactsPlugin instead for better control and flexibility. See"
        " google.adk.plugins.SaveFilesAsArtifactsPlugin for migration guidance.",
        DeprecationWarning,
        stacklevel=2,
    )
    parts = list(message.parts or [])
    for index, part in enumerate(parts):
        if part.inline_data is None:
            continue
        file_name = f"artifact_{ctx.invocation_id}_{index}"
        with user_code("saving an input blob as an artifact"):
            await ctx.artifact_service.save_artifact(
                app_name=ctx.app_name,
                user_id=ctx.user_id,
                session_id=ctx.session.id,
                filename=file_name,
                artifact=part,
            )
        parts[index] = types.Part(text=f"Uploaded file: {file_name}. It is saved into artifacts")
    return message.model_copy(update={"parts": parts})


async def _notify_run_error(
    plugins: PluginManager, ctx: InvocationContext, failure: ApplicationError
) -> None:
    if plugins.overrides("on_run_error_callback"):
        error = rebuild(find_raised(failure) or RaisedError.of(failure)) or failure
        await plugins.run_on_run_error_callback(invocation_context=ctx, error=error)


async def _begin(
    app: App,
    store: BaseSessionService,
    input: BeginInput,
    session: Session,
    message: types.Content | None,
    ctx: InvocationContext,
    plugins: PluginManager,
    routed_before: bool = False,
) -> BeginOutput:
    invocation = input.invocation
    recorded = False
    if message is not None:
        event = Event(
            id=input.user_event_id,
            timestamp=input.timestamp,
            invocation_id=invocation.invocation_id,
            author="user",
            content=message,
            actions=EventActions(state_delta=dict(invocation.state_delta or {})),
        )
        # google-adk 2.13: an answer goes on the branch of the call it answers
        mine = [e for e in session.events if e.invocation_id == invocation.invocation_id]
        answered = find_matching_function_call([*mine, event])
        event.branch = answered.branch if answered is not None else None
        await store.append_event(session, apply_run_metadata(event, invocation.run_config))
        recorded = True
    elif invocation.state_delta:  # google-adk 2.13: a resume without a message keeps it
        event = Event(
            id=input.user_event_id,
            timestamp=input.timestamp,
            invocation_id=invocation.invocation_id,
            author="user",
            actions=EventActions(state_delta=dict(invocation.state_delta)),
        )
        await store.append_event(session, apply_run_metadata(event, invocation.run_config))
        recorded = True
    agent = find_agent_to_run(session, app.root_agent)
    if recorded and routed_before and message is not None and is_resumable(app):
        if not any(p.function_response for p in message.parts or []):  # a text message
            prior = apply_rewinds(session.events)[:-1]  # (the message, just recorded)
            agent = caller_keeping_the_turn(prior, app.root_agent) or agent
    ctx.agent = agent
    early_exit = await before_run(store, session, plugins, ctx, input.user_event_id)
    return BeginOutput(
        root=build_spec(app.root_agent, plugins),
        agent_to_run=agent.name,
        user_event_recorded=recorded,
        early_exit=early_exit,
        run_hooks=[hook for hook in RUN_HOOKS if plugins.overrides(hook)],
        compaction=app.events_compaction_config is not None,
        busy_policy=app.busy_policy,
        confirmed=confirmed_calls(session, message),
        resumable=is_resumable(app),
        # (the agent that made the call goes on on its branch: a ParallelAgent's)
        branch=event.branch if recorded and agent is not app.root_agent else None,
    )


def confirmed_calls(session: Session, message: types.Content | None) -> list[ConfirmedCall]:
    """The confirmations `message` answers (google-adk 2.13's request_confirmation
    processor): each FunctionResponse to an `adk_request_confirmation` call of the
    session, with the original call it confirms and the ToolConfirmation it carries."""
    answers = {
        part.function_response.id: part.function_response.response or {}
        for part in (message.parts if message else None) or []
        if part.function_response and part.function_response.name == REQUEST_CONFIRMATION
    }
    found: list[ConfirmedCall] = []
    for event in session.events if answers else []:
        for asking in event.get_function_calls():
            if asking.id not in answers or asking.name != REQUEST_CONFIRMATION:
                continue
            original = (asking.args or {}).get("originalFunctionCall")
            if not isinstance(original, dict):
                continue
            call = types.FunctionCall.model_validate(original)
            answer = answers[asking.id]
            request = PendingRequest(
                id=asking.id,
                kind="confirmation",
                call_id=call.id or "",
                tool=call.name or "",
                args=dict(call.args or {}),
                agent=event.author,
                branch=event.branch,
                since=event.timestamp,
                owner_workflow_id="",
            )
            found.append(
                ConfirmedCall(
                    request=request,
                    # as it is, or in the ADK web client's {"response": "<json>"} wrapping
                    confirmation=ToolConfirmation.from_response_dict(answer),
                )
            )
    return found


def _context(
    store: BaseSessionService,
    session: Session,
    input: BeginInput,
    agent: BaseAgent,
    plugins: PluginManager,
) -> InvocationContext:
    invocation = input.invocation
    return InvocationContext(
        memory_service=memory_service(),
        session_service=store,
        invocation_id=invocation.invocation_id,
        agent=agent,
        user_content=invocation.new_message,
        session=session,
        run_config=invocation.run_config,
        plugin_manager=plugins,
    )


async def run_hook(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: RunHookInput,
    artifacts: BaseArtifactService | None = None,
) -> None:
    """The plugins' after_run_callback (the invocation ended well, or a before_run
    answered), or a notification that each plugin gets whatever the others do:
    on_run_error_callback (the invocation failed), on_agent_error_callback (an
    agent's run failed; every agent on the way up is told, as in google-adk 2.13)."""
    app = find_app(apps, input.session.app_name)
    plugins = plugin_manager_of(app)
    session = await load_or_create_session(store, input.session)
    session.state.update(input.temp_state)  # as 2.13's session holds it during the run
    agent = next((a for a in all_agents(app.root_agent) if a.name == input.agent_name), None)
    ctx = InvocationContext(
        memory_service=memory_service(),
        session_service=store,
        artifact_service=artifacts,
        invocation_id=input.invocation_id,
        agent=agent or app.root_agent,
        session=session,
        run_config=input.run_config or RunConfig(),
        plugin_manager=plugins,
        resumability_config=app.resumability_config,
    )
    if input.hook == "after_run_callback":
        with user_code("a plugin's after_run_callback"):
            await plugins.run_after_run_callback(invocation_context=ctx)
        return
    assert input.error is not None
    error = rebuild(input.error) or Exception(input.error.message)
    if input.hook == "on_run_error_callback":
        await plugins.run_on_run_error_callback(invocation_context=ctx, error=error)
        return
    ctx.branch = input.branch
    await plugins.run_on_agent_error_callback(
        agent=ctx.agent, callback_context=CallbackContext(ctx), error=error
    )


async def answer_hook(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: AnswerHookInput,
    artifacts: BaseArtifactService | None = None,
) -> AnswerHookOutput:
    """on_user_message or before_run for an answer continuing a waiting invocation
    (google-adk 2.13: each answer message is a run of its own; the invocation's own
    message is what the context's user_content holds)."""
    app = find_app(apps, input.session.app_name)
    plugins = plugin_manager_of(app)
    session = await load_or_create_session(store, input.session)
    session.state.update(input.temp_state)
    agent = next((a for a in all_agents(app.root_agent) if a.name == input.agent_name), None)
    ctx = InvocationContext(
        memory_service=memory_service(),
        session_service=store,
        artifact_service=artifacts,
        invocation_id=input.invocation_id,
        agent=agent or app.root_agent,
        user_content=_first_message(session, input.invocation_id),
        session=session,
        run_config=input.run_config or RunConfig(),
        plugin_manager=plugins,
        resumability_config=app.resumability_config,
    )
    if input.hook == "on_user_message_callback":
        assert input.message is not None
        with user_code("a plugin's on_user_message_callback"):
            replaced = await plugins.run_on_user_message_callback(
                invocation_context=ctx, user_message=input.message
            )
        return AnswerHookOutput(message=replaced)
    return AnswerHookOutput(
        early_exit=await before_run(store, session, plugins, ctx, input.event_id)
    )


def _reopen(app: App, session: Session, invocation_id: str, plugins: PluginManager) -> BeginOutput:
    requests, responded = open_requests(app, session, invocation_id)
    return BeginOutput(
        root=build_spec(app.root_agent, plugins),
        agent_to_run=requests[0].agent if requests else app.root_agent.name,
        user_event_recorded=False,
        run_hooks=[hook for hook in RUN_HOOKS if plugins.overrides(hook)],
        busy_policy=app.busy_policy,
        resumable=is_resumable(app),
        reopened=requests,
        responded=responded,
    )


def open_requests(
    app: App, session: Session, invocation_id: str
) -> tuple[list[PendingRequest], list[str]]:
    """The requests of an invocation nobody has answered (its confirmation requests and
    long-running calls with no user response, a deadline not yet recorded as passed),
    and the call ids among them with an intermediate response."""
    events = [e for e in session.events if e.invocation_id == invocation_id]
    answered = {r.id for e in events if e.author == "user" for r in e.get_function_responses()}
    responses = [
        (e.timestamp, r.id)
        for e in events
        if e.author != "user"
        for r in e.get_function_responses()
    ]
    agents = {a.name: a for a in all_agents(app.root_agent)}
    requests = []
    for event in events:
        for call in event.get_function_calls():
            if call.id not in (event.long_running_tool_ids or set()) or call.id in answered:
                continue
            where = dict(agent=event.author, branch=event.branch, since=event.timestamp)
            if call.name == REQUEST_CONFIRMATION:
                original = (call.args or {}).get("originalFunctionCall") or {}
                asked = (call.args or {}).get("toolConfirmation") or {}
                requests.append(
                    PendingRequest(
                        id=call.id or "",
                        kind="confirmation",
                        call_id=original.get("id") or "",
                        tool=original.get("name") or "",
                        args=dict(original.get("args") or {}),
                        hint=asked.get("hint") or "",
                        payload=asked.get("payload"),
                        owner_workflow_id="",
                        **where,
                    )
                )
                continue
            seconds = _deadline_seconds(agents.get(event.author), call.name or "")
            deadline = event.timestamp + seconds if seconds else None
            if deadline is not None and any(i == call.id and t >= deadline for t, i in responses):
                continue  # its deadline passed: the error result is recorded
            requests.append(
                PendingRequest(
                    id=call.id or "",
                    kind="long_running",
                    call_id=call.id or "",
                    tool=call.name or "",
                    args=dict(call.args or {}),
                    deadline=deadline,
                    owner_workflow_id="",
                    **where,
                )
            )
    responded = {i for _, i in responses}
    return requests, [r.call_id for r in requests if r.call_id in responded]


def _deadline_seconds(agent: BaseAgent | None, tool_name: str) -> float | None:
    for tool in getattr(agent, "tools", None) or []:
        if getattr(tool, "name", None) == tool_name:
            deadline = getattr(tool, "deadline", None)
            return deadline.total_seconds() if deadline else None
    return None
