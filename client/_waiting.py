"""A new message for a session whose invocation waits for answers: it gives way;
an answer for an invocation that has ended: the session's next message.

Runs on: process side. google-adk 2.13 starts a new invocation for a new message
and leaves the calls its user did not answer open. Ours keeps one invocation
workflow per session: one that only waits (its run over, or paused in a resumable
app) ends on the `adk_release` update, so the message starts the next one. A
running invocation is not this module's business (SessionBusyError, or the app's
busy-session policy).
"""

from __future__ import annotations

from typing import Any

from google.genai import types
from temporalio.client import Client, WorkflowUpdateFailedError
from temporalio.service import RPCError

from adk.events.event import Event
from adk.flows.llm_flows._context_filters import apply_rewinds
from adk.sessions.base_session_service import BaseSessionService
from workflows import names
from workflows.contracts import InvocationInput, InvocationStatus, SessionRef

from ._answers import AnswerRejectedError
from ._busy import input_of

REQUEST_CONFIRMATION = "adk_request_confirmation"


async def give_way(
    temporal: Client, workflow_id: str, session: SessionRef
) -> InvocationInput | None:
    """End the session's invocation if it waits for answers: once it has ended, the input
    of the run that waited (its invocation, run config); None if it runs (or cannot be
    asked)."""
    handle = temporal.get_workflow_handle(workflow_id)
    try:
        status = await handle.query(names.QUERY_STATUS, result_type=InvocationStatus)
        if status.status != "waiting" or not any(r.awaited for r in status.pending):
            return None  # running (a long-running call's request shows while its tool runs)
        run_id = (await handle.describe()).run_id
    except RPCError:
        return None
    waiting = temporal.get_workflow_handle(workflow_id, run_id=run_id)
    try:
        await waiting.execute_update(names.UPDATE_RELEASE, session, result_type=str)
    except (WorkflowUpdateFailedError, RPCError):
        return None  # an answer came first (or another run waits now): it runs again
    try:
        await waiting.result()
    except Exception:  # noqa: BLE001 - ended either way: the session is free
        pass
    try:
        return await input_of(temporal, workflow_id, run_id)
    except Exception:  # noqa: BLE001 - (its run config unknown: the default)
        return InvocationInput(session=session, invocation_id=status.invocation_id)


async def invocation_of_calls(
    store: BaseSessionService, session: SessionRef, message: types.Content | None
) -> str | None:
    """The invocation of the calls a message of FunctionResponses answers (google-adk
    2.13 goes on under it); None for any other message, or calls not found."""
    ids = {
        part.function_response.id
        for part in (message.parts if message else None) or []
        if part.function_response and part.function_response.id
    }
    if not ids:
        return None
    live = apply_rewinds([event for _, event in await session_events(store, session)])
    for event in reversed(live):  # (a call of a rewound invocation is not found)
        if any(call.id in ids for call in event.get_function_calls()):
            return event.invocation_id
    return None


async def answer_message(
    store: BaseSessionService, session: SessionRef, request_id: str, kind: str, payload: Any = None
) -> types.Content:
    """ADK's FunctionResponse message for an answer to a request of an ended invocation
    (the request found in the session); AnswerRejectedError when it does not fit, or
    when the session was rewound to before it (Runner.rewind_async)."""
    recorded = [event for _, event in await session_events(store, session)]
    events = apply_rewinds(recorded)
    answered = {
        response.id
        for event in events
        for response in event.get_function_responses()
        if event.author == "user"
    }
    for event in reversed(events):
        for call in event.get_function_calls():
            original = (call.args or {}).get("originalFunctionCall") or {}
            asks = call.name == REQUEST_CONFIRMATION and request_id in (call.id, original.get("id"))
            waits = (
                not asks
                and call.id == request_id
                and call.id in (event.long_running_tool_ids or set())
            )
            if not (asks or waits):
                continue
            if call.id in answered:
                raise AnswerRejectedError(
                    f"Request {request_id!r} ({call.name}) was already answered."
                )
            if asks and kind not in ("approve", "reject"):
                raise AnswerRejectedError(
                    f"{call.id} asks to confirm {original.get('name')}: answer it with approve or reject."
                )
            if waits and kind != "respond":
                raise AnswerRejectedError(
                    f"{call.id} is a long-running call of {call.name}: answer it with respond."
                )
            if asks:
                response: dict[str, Any] = {"confirmed": kind == "approve"}
                if payload is not None:
                    response["payload"] = payload
            elif not isinstance(payload, dict):
                raise AnswerRejectedError(
                    f"The result for {call.name} must be a JSON object, like"
                    f' {{"status": "done"}}, not a {type(payload).__name__}.'
                )
            else:
                response = payload
            part = types.Part(
                function_response=types.FunctionResponse(
                    id=call.id, name=call.name, response=response
                )
            )
            return types.Content(role="user", parts=[part])
    if any(request_id in _call_ids(event) for event in recorded):
        raise AnswerRejectedError(
            f"Request {request_id!r} belongs to an invocation the session was rewound to"
            " before: nothing to answer."
        )
    raise AnswerRejectedError(
        f"No request {request_id!r} in session {session.session_id!r}: nothing to answer."
    )


def _call_ids(event: Event) -> set[str | None]:
    """The event's call ids, and the ids of the calls its confirmation requests ask about."""
    ids: set[str | None] = set()
    for call in event.get_function_calls():
        ids.add(call.id)
        ids.add(((call.args or {}).get("originalFunctionCall") or {}).get("id"))
    return ids


async def session_events(store: BaseSessionService, session: SessionRef) -> list[tuple[int, Event]]:
    return await store.list_events(
        app_name=session.app_name, user_id=session.user_id, session_id=session.session_id
    )
