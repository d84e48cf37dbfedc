"""Tool-call activity: one function call with its callbacks, in a ToolContext.

Runs on: activity side (worker process). A tool's exception goes to the
on_tool_error callbacks, which may turn it into a result the model sees; else it
fails the call (and the invocation) as itself, as in google-adk 2.13. Retried
first only when the tool opted into a retry policy (ToolCallInput.retry_errors).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pydantic
import pydantic_core
import structlog
from google.genai import types

from adk.agents.base_agent import call_maybe_async
from adk.agents.callback_context import CallbackContext
from adk.agents.invocation_context import InvocationContext
from adk.agents.llm_agent import LlmAgent
from adk.apps.app import App, plugin_manager_of
from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.events.event import Event
from adk.events.event_actions import EventActions
from adk.flows.llm_flows.functions import build_function_response_event, extract_media
from adk.flows.llm_flows.output_schema import set_model_response_tool
from adk.flows.llm_flows.pipeline import build_llm_request
from adk.plugins.plugin_manager import PluginManager
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.session import Session
from adk.tools._transient import TransientToolError
from adk.tools.base_tool import BaseTool
from adk.tools.base_toolset import BaseToolset
from adk.tools.set_model_response_tool import SetModelResponseTool
from adk.tools.tool_context import ToolContext
from workflows.contracts import StepRef, ToolCallInput, ToolCallOutput
from workflows.errors import RaisedError, rebuild

from . import _custom_metadata as custom_metadata
from ._artifacts import reusing_earlier_saves
from ._model_step import before_model, invocation_context, load_session
from ._on_event import record
from ._spec import static_tools, touches_state
from ._support import (
    check_payload_size,
    find_app,
    find_llm_agent,
    raised,
    retried,
    transient_failure,
    user_code,
)

log = structlog.get_logger("durable_adk.tool")


async def sees_session(agent: LlmAgent, plugins: PluginManager, name: str) -> bool:
    """Whether any code this call runs can read the session (state, events, user content).

    Toolsets are not listed for this: one that reads no context says so itself, and
    its tools are found (listed, or taken from the invocation's cached listing) once,
    by `find_tool`."""
    tools = static_tools(agent)
    if not any(isinstance(t, BaseToolset) for t in agent.tools):
        tools = await agent.canonical_tools()
    tool = next((t for t in tools if t.name == name), None)
    return touches_state(agent, plugins, tool, name)  # a toolset's tool: its toolset says


async def find_tool(agent: LlmAgent, tool_context: ToolContext, name: str) -> BaseTool | None:
    for tool in await agent.canonical_tools(tool_context):
        if tool.name == name:
            return tool
    from adk.flows.llm_flows.agent_transfer import get_transfer_targets
    from adk.tools.transfer_to_agent_tool import TransferToAgentTool

    if name == "transfer_to_agent" and (targets := get_transfer_targets(agent)):
        return TransferToAgentTool([t.name for t in targets])
    if name == SetModelResponseTool.NAME:
        return set_model_response_tool(agent)
    return None


async def _request_tools(
    store: BaseSessionService,
    ref: StepRef,
    app: App,
    agent: LlmAgent,
    plugins: PluginManager,
    artifacts: BaseArtifactService | None,
) -> dict[str, BaseTool]:
    """The tools of the request the model answered (google-adk 2.13's tools_dict, in
    its order), for a name the agent's own tools lack: a before_model callback or a
    tool's process_llm_request may have put one there, and 2.13 runs the model's call
    of it. The request is built again and the before_model callbacks run on it once
    more, on a session of their own: what they write there is dropped (the model step
    recorded their writes)."""
    session = await load_session(store, ref, records=[])
    ctx = invocation_context(
        store, session, ref, agent, plugins, artifacts, app.resumability_config
    )
    with user_code(f"building the request of agent {agent.name}"):
        llm_request = await build_llm_request(ctx, agent)
    callback_context = CallbackContext(ctx, event_actions=EventActions())
    await before_model(agent, plugins, callback_context, llm_request)
    return dict(llm_request.tools_dict)


def not_found_result(name: str, available: list[str]) -> dict[str, Any]:
    return {
        "error": f"Invoking `{name}()` failed as no tool with that name is available. The tools"
        f" you can call are: {', '.join(available) or 'none'}. You could retry, but it is"
        " IMPORTANT that you only call a tool from that list."
    }


async def tool_call(
    apps: Mapping[str, App],
    store: BaseSessionService,
    input: ToolCallInput,
    artifacts: BaseArtifactService | None = None,
) -> ToolCallOutput:
    ref, call = input.ref, input.function_call
    app = find_app(apps, ref.session.app_name)
    agent = find_llm_agent(app, ref.agent_name)
    plugins = plugin_manager_of(app)
    if plugins.overrides("on_event_callback") or await sees_session(
        agent, plugins, call.name or ""
    ):
        session = await load_session(
            store, ref, records=[input.record_as] if input.record_as else []
        )
    else:  # nothing this call runs can read the session: skip the store reads
        session = Session(
            id=ref.session.session_id, app_name=ref.session.app_name, user_id=ref.session.user_id
        )
    ctx = invocation_context(
        store, session, ref, agent, plugins, artifacts, app.resumability_config
    )
    metadata_before = custom_metadata.snapshot(ctx)
    ctx.artifact_service = await reusing_earlier_saves(
        ctx.artifact_service, store, ref, [input.record_as]
    )
    session.state.update(input.state_before)  # what this step's earlier calls wrote
    actions = EventActions()
    tool_context = ToolContext(
        ctx,
        function_call_id=call.id,
        event_actions=actions,
        tool_confirmation=input.tool_confirmation,
    )
    args = copy.deepcopy(call.args or {})
    requested: dict[str, BaseTool] | None = None
    try:
        tool = await find_tool(agent, tool_context, call.name or "")
        if tool is None and input.failed is None:
            requested = await _request_tools(store, ref, app, agent, plugins, artifacts)
            tool = requested.get(call.name or "")
    except TransientToolError as error:  # a toolset's listing lost its connection
        raise transient_failure(error) from None
    hooks = _Hooks(agent, plugins)
    if input.failed is not None and tool is not None:  # an AgentTool's agent failed
        response = await _agent_tool_error(hooks, tool, args, tool_context, input.failed)
    elif tool is None:
        available = list(requested) if requested is not None else []
        response = await _unknown_tool(hooks, args, tool_context, call.name or "", available)
    else:
        response = await _run_with_callbacks(hooks, tool, args, tool_context, input.retry_errors)
    actions = tool_context.actions  # records writes into containers read from state
    ended = ctx.end_invocation
    metadata = custom_metadata.written(ctx, metadata_before)
    if not response and tool is not None and tool.is_long_running:
        # ADK: nothing yet, no event
        await _retract_earlier(store, session, input)
        return ToolCallOutput(
            response=None, actions=actions, end_invocation=ended, custom_metadata=metadata
        )
    try:
        pydantic_core.to_jsonable_python(actions.state_delta)
    except pydantic_core.PydanticSerializationError as error:
        # the tool ran; a retry would run it again: report instead, and drop the delta
        return ToolCallOutput(
            response={
                "error": f"Tool `{call.name}` wrote a state value that is not JSON-serializable"
                f" ({error}). Store plain values (str, numbers, bools, lists, dicts)."
            },
            custom_metadata=metadata,
        )
    response, media = extract_media(response)  # 2.13: after the callbacks
    output = ToolCallOutput(
        response=as_json_result(call.name or "", response),
        actions=actions,
        end_invocation=ended,
        media=media,
        custom_metadata=metadata,
    )
    check_payload_size(output, f"Tool {call.name} of agent {agent.name}")  # before recording
    if input.record_as is not None and not actions.requested_tool_confirmations:
        await _record(store, session, input, output, plugins, lambda: ctx)
    else:
        await _retract_earlier(store, session, input)
    if call.name == SetModelResponseTool.NAME and actions.set_model_response is not None:
        output.final_event = _structured_response_event(agent, ref, actions.set_model_response)
    return output


def _structured_response_event(agent: LlmAgent, ref: StepRef, response: Any) -> Event:
    """google-adk 2.13's final event after a valid set_model_response: the model's answer
    as JSON text, saved under output_key as any final answer (the schema checks it)."""
    event = Event(
        invocation_id=ref.invocation_id,
        author=agent.name,
        branch=ref.branch,
        content=types.Content(
            role="model", parts=[types.Part(text=json.dumps(response, ensure_ascii=False))]
        ),
    )
    with user_code(f"saving the output of agent {agent.name}"):
        agent._maybe_save_output_to_state(event)
    return event


async def _record(
    store: BaseSessionService,
    session: Session,
    input: ToolCallInput,
    output: ToolCallOutput,
    plugins: PluginManager,
    ctx: Callable[[], InvocationContext],
) -> None:
    """Record the response event of a model event's only call (an idempotent upsert).

    The workflow builds the same event from this output with the same function, so
    the response enters history once (as this activity's result). A call that asks
    for confirmation is left to the workflow, which orders it with the request.
    """
    assert input.record_as is not None and output.response is not None
    event = build_function_response_event(
        event_id=input.record_as,
        timestamp=await _earlier_timestamp(store, input) or time.time(),
        invocation_id=input.ref.invocation_id,
        author=input.ref.agent_name,
        branch=input.ref.branch,
        node_path=input.ref.node_path,
        responses=[(input.function_call, output.response, output.actions)],
        media={input.function_call.id or "": output.media} if output.media else None,
    )
    recorded = await record(store, session, event, plugins, ctx, input.ref.run_config)
    output.recorded_at = recorded.timestamp


async def _earlier_timestamp(store: BaseSessionService, input: ToolCallInput) -> float | None:
    """A retry keeps the time its first attempt recorded: a deterministic tool's retry
    then records what the first did, byte for byte, and a stream that already showed
    it shows the stored event."""
    if not retried():
        return None
    ref = input.ref.session
    recorded = await store.list_events(
        app_name=ref.app_name,
        user_id=ref.user_id,
        session_id=ref.session_id,
        invocation_id=input.ref.invocation_id,
    )
    return next((e.timestamp for _, e in recorded if e.id == input.record_as), None)


async def _retract_earlier(
    store: BaseSessionService, session: Session, input: ToolCallInput
) -> None:
    """A retried call that records nothing: an earlier attempt's record is not this one's."""
    if input.record_as is not None and retried():
        await store.retract_event(session, input.record_as)


@dataclasses.dataclass(frozen=True)
class _Hooks:
    """Who gets a say around a tool call: the app's plugins first, then the agent's
    own callbacks (skipped when a plugin answers), as in google-adk 2.13."""

    agent: LlmAgent
    plugins: PluginManager

    async def first(
        self, hook: str, *, tool: BaseTool, args: dict[str, Any], ctx: ToolContext, **extra: Any
    ) -> Any:
        """The plugins' `hook`, then the agent's `<hook>s`: the first answer wins."""
        with user_code(f"a plugin's {hook}"):
            run = getattr(self.plugins, f"run_{hook}")
            plugin_extra = {("result" if k == "tool_response" else k): v for k, v in extra.items()}
            result = await run(tool=tool, tool_args=args, tool_context=ctx, **plugin_extra)
        if result is not None:
            return result
        callbacks: Sequence[Callable[..., Any]] = getattr(self.agent, f"canonical_{hook}s")
        for callback in callbacks:
            with user_code(f"{hook} of agent {self.agent.name}"):
                result = await call_maybe_async(
                    callback, tool=tool, args=args, tool_context=ctx, **extra
                )
            if result is not None:
                return result
        return None


async def _unknown_tool(
    hooks: _Hooks, args: dict[str, Any], ctx: ToolContext, name: str, available: list[str]
) -> Any:
    """ADK 2.x: before_tool callbacks (with a placeholder tool), then on_tool_error
    with the full "not found" error, else the error result the model can react to."""
    placeholder = _Placeholder(name=name or "<unnamed>", description="Tool not found")
    result = await hooks.first("before_tool_callback", tool=placeholder, args=args, ctx=ctx)
    if result is not None:
        return result
    error = ValueError(
        f"Tool '{name}' not found.\nAvailable tools: {', '.join(available)}\n\n"
        "Possible causes:\n"
        "  1. LLM hallucinated the function name - review agent instruction clarity\n"
        "  2. Tool not registered - verify agent.tools list\n"
        "  3. Name mismatch - check for typos\n\n"
        "Suggested fixes:\n"
        "  - Review agent instruction to ensure tool usage is clear\n"
        "  - Verify tool is included in agent.tools list\n"
        "  - Check for typos in function name"
    )
    result = await hooks.first(
        "on_tool_error_callback", tool=placeholder, args=args, ctx=ctx, error=error
    )
    return not_found_result(name, available) if result is None else result


class _Placeholder(BaseTool):
    """Stands in for a tool the model named but the agent does not have."""


async def _run_with_callbacks(
    hooks: _Hooks, tool: BaseTool, args: dict[str, Any], ctx: ToolContext, retry: bool
) -> Any:
    """before_tool → the tool (on_tool_error on exception) → after_tool."""
    response = await hooks.first("before_tool_callback", tool=tool, args=args, ctx=ctx)
    if response is None:
        try:
            response = await tool.run_async(args=args, tool_context=ctx)
        except TransientToolError as error:  # a lost connection: this attempt is retried
            raise transient_failure(error) from None
        except Exception as error:
            response = await _tool_error(hooks, tool, args, ctx, error, retry)
    altered = await hooks.first(
        "after_tool_callback", tool=tool, args=args, ctx=ctx, tool_response=response
    )
    return response if altered is None else altered


async def _tool_error(
    hooks: _Hooks,
    tool: BaseTool,
    args: dict[str, Any],
    ctx: ToolContext,
    error: Exception,
    retry: bool,
) -> Any:
    result = await hooks.first("on_tool_error_callback", tool=tool, args=args, ctx=ctx, error=error)
    if result is not None:
        return result
    # what the model would see (the message), not the repr: no headers or payloads
    log.warning("tool raised", tool=tool.name, error_type=type(error).__name__, error=str(error))
    raise raised(
        error, f"calling tool {tool.name} of agent {hooks.agent.name}", retryable=retry
    ) from None


async def _agent_tool_error(
    hooks: _Hooks, tool: BaseTool, args: dict[str, Any], ctx: ToolContext, failed: RaisedError
) -> Any:
    """The on_tool_error callbacks get an AgentTool's failure as its exception (ADK);
    unanswered, it fails the call as itself (the description it came with)."""
    error = rebuild(failed) or Exception(failed.message)
    result = await hooks.first("on_tool_error_callback", tool=tool, args=args, ctx=ctx, error=error)
    if result is None:
        readable = f"{failed.name} while calling tool {tool.name} of agent {hooks.agent.name}"
        raise failed.as_application_error(f"{readable}: {failed.message}")
    return result


def as_json_result(name: str, response: Any) -> dict[str, Any]:
    """Wrap non-dicts as {"result": ...}; a value that is not JSON becomes an error result."""
    if not isinstance(response, dict):
        response = {"result": response}
    try:
        # a model inside (e.g. a Part) as google-genai sends it: its unset fields left out
        return pydantic_core.to_jsonable_python(_models_dumped(response))  # type: ignore[no-any-return]
    except pydantic_core.PydanticSerializationError as error:
        return {
            "error": f"Tool `{name}` returned a value that is not JSON-serializable ({error})."
            " Return a dict of plain values (str, numbers, bools, lists, dicts)."
        }


def _models_dumped(value: Any) -> Any:
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, dict):
        return {k: _models_dumped(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_models_dumped(v) for v in value]
    return value
