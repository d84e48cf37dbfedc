"""Human in the loop: tool confirmations and long-running results as durable waits.

Runs on: workflow (Temporal sandbox). The invocation records ADK's events
(the call, an `adk_request_confirmation` call marked long-running, the pending
response), then waits with `workflow.wait_condition` — no worker slot is held,
for minutes or weeks. Answers arrive through the root workflow's updates (or
signals), which validate them first; the root forwards answers meant for a
child agent run. An approved tool then runs, once, with the confirmation in
its ToolContext.
"""

from __future__ import annotations

from typing import Any, Protocol

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.events.event import Event
    from adk.events.event_actions import EventActions
    from adk.events.tool_confirmation import ToolConfirmation
    from adk.flows.llm_flows.functions import build_function_response_event

    from .contracts import CallPlan, HumanAnswer, PendingRequest, SessionRef

REQUEST_CONFIRMATION = "adk_request_confirmation"


class RequestHub(Protocol):
    """Where a workflow's pending requests are registered (the root keeps the list)."""

    async def add(self, requests: list[PendingRequest]) -> None: ...

    async def resolve(self, requests: list[PendingRequest]) -> None: ...


def confirmation_event(
    *,
    invocation_id: str,
    agent: str,
    branch: str | None,
    calls: list[types.FunctionCall],
    confirmations: dict[str, ToolConfirmation],
    owner: str,
) -> tuple[Event, list[PendingRequest]]:
    """ADK's confirmation request event, and the requests it opens."""
    parts, requests = [], []
    now = workflow.now().timestamp()
    for call in calls:
        confirmation = confirmations.get(call.id or "")
        if confirmation is None:
            continue
        request_id = f"adk-{workflow.uuid4()}"
        parts.append(
            types.Part(
                function_call=types.FunctionCall(
                    id=request_id,
                    name=REQUEST_CONFIRMATION,
                    args={
                        "originalFunctionCall": call.model_dump(exclude_none=True, by_alias=True),
                        "toolConfirmation": confirmation.model_dump(
                            by_alias=True, exclude_none=True
                        ),
                    },
                )
            )
        )
        requests.append(
            PendingRequest(
                id=request_id,
                kind="confirmation",
                call_id=call.id or "",
                tool=call.name or "",
                args=dict(call.args or {}),
                hint=confirmation.hint,
                payload=confirmation.payload,
                agent=agent,
                branch=branch,
                since=now,
                owner_workflow_id=owner,
            )
        )
    event = Event(
        id=str(workflow.uuid4()),
        timestamp=now,
        invocation_id=invocation_id,
        author=agent,
        branch=branch,
        content=types.Content(role="model", parts=parts),
        long_running_tool_ids={r.id for r in requests},
    )
    return event, requests


def long_running_requests(
    *,
    agent: str,
    branch: str | None,
    calls: list[types.FunctionCall],
    plans: dict[str, CallPlan],
    owner: str,
) -> list[PendingRequest]:
    """One request per call of a long-running tool: its final result is awaited."""
    now = workflow.now().timestamp()
    return [
        PendingRequest(
            id=call.id or "",
            kind="long_running",
            call_id=call.id or "",
            tool=call.name or "",
            args=dict(call.args or {}),
            agent=agent,
            branch=branch,
            since=now,
            deadline=now + plan.deadline_seconds if plan.deadline_seconds else None,
            owner_workflow_id=owner,
        )
        for call in calls
        if (plan := plans.get(call.id or "")) is not None and plan.kind == "long_running"
    ]


def answer_event(
    request: PendingRequest, answer: HumanAnswer, invocation_id: str
) -> tuple[Event, ToolConfirmation | None]:
    """The user event an answer becomes (as ADK records a resume message)."""
    confirmation = None
    if request.kind == "confirmation":
        sent = answer.response
        if sent is None:  # approve/reject: ADK's message, as its docs show it
            sent = {"confirmed": answer.kind == "approve"}
            if answer.payload is not None:
                sent["payload"] = answer.payload
        # the tool gets the confirmation the message carries (google-adk 2.13 parses it)
        confirmation = ToolConfirmation(
            hint=str(sent.get("hint") or ""),
            confirmed=answer.kind == "approve",
            payload=answer.payload,
        )
        response = types.FunctionResponse(id=request.id, name=REQUEST_CONFIRMATION, response=sent)
    else:
        response = types.FunctionResponse(
            id=request.call_id, name=request.tool, response=as_result(answer.payload)
        )
    event = Event(
        id=str(workflow.uuid4()),
        timestamp=workflow.now().timestamp(),
        invocation_id=invocation_id,
        author="user",
        branch=request.branch,
        content=types.Content(role="user", parts=[types.Part(function_response=response)]),
    )
    return event, confirmation


def tool_response_event(
    request: PendingRequest,
    response: dict[str, Any],
    invocation_id: str,
    actions: EventActions | None = None,
) -> Event:
    """A function response from the agent's side (progress, a re-run tool, a deadline)."""
    return build_function_response_event(
        event_id=str(workflow.uuid4()),
        timestamp=workflow.now().timestamp(),
        invocation_id=invocation_id,
        author=request.agent,
        branch=request.branch,
        responses=[
            (
                types.FunctionCall(id=request.call_id, name=request.tool),
                response,
                actions or EventActions(),
            )
        ],
    )


def as_result(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {"result": value}


def check_answer(request: PendingRequest | None, answer: HumanAnswer, pending: list[str]) -> None:
    """Raise ValueError with a clear message when an answer does not fit its request."""
    if request is None:
        raise ValueError(
            f"No pending request {answer.id!r}. Pending: {', '.join(pending) or 'none'}."
        )
    if request.answered:
        raise ValueError(f"Request {answer.id!r} ({request.tool}) was already answered.")
    if answer.kind in ("approve", "reject") and request.kind != "confirmation":
        raise ValueError(
            f"{request.id} is a long-running call of {request.tool}: answer it with respond."
        )
    if answer.kind in ("respond", "progress") and request.kind != "long_running":
        raise ValueError(
            f"{request.id} asks to confirm {request.tool}: answer it with approve or reject."
        )
    if answer.kind in ("respond", "progress") and answer.payload is None:
        raise ValueError(f"{answer.kind} needs a result for {request.tool} (JSON).")
    if answer.kind == "approve" and answer.payload is not None and not answer.adk_message:
        _check_payload(request, answer.payload)


def check_session(answer: HumanAnswer, session: SessionRef) -> None:
    """An answer names the session it is for; refused for any other (the error does
    not tell whose invocation this is)."""
    named = answer.session
    if named is None:
        raise ValueError(
            f"The answer to {answer.id!r} does not name the session it is for"
            " (app_name, user_id, session_id): answers must."
        )
    if named != session:
        raise ValueError(
            f"This invocation does not work on session {named.session_id!r} of user"
            f" {named.user_id!r} (app {named.app_name!r}): the answer was refused."
        )


def check_fit(request: PendingRequest, answer: HumanAnswer) -> None:
    """An answer's value fits what its request declared (after `check_answer`).

    ADK's resume message is taken as google-adk 2.13 takes it: any payload."""
    if answer.adk_message and answer.kind in ("approve", "reject"):
        return
    if answer.kind == "reject" and answer.payload is not None:
        raise ValueError(f"reject takes no payload ({request.tool}, {request.id}).")
    if answer.kind == "approve" and answer.payload is not None and request.payload is None:
        raise ValueError(
            f"{request.tool} asked for no payload ({request.id}): approve it without one."
        )
    if answer.kind in ("respond", "progress") and not isinstance(answer.payload, dict):
        raise ValueError(
            f"The result for {request.tool} must be a JSON object, like"
            f' {{"status": "done"}}, not a {type(answer.payload).__name__}.'
        )


def _check_payload(request: PendingRequest, payload: Any) -> None:
    expected = request.payload
    if expected is None:
        return
    if type(payload) is not type(expected) and not (
        isinstance(payload, (int, float)) and isinstance(expected, (int, float))
    ):
        raise ValueError(
            f"The payload for {request.tool} must be a {type(expected).__name__}"
            f" like {expected!r}, not a {type(payload).__name__}."
        )
    if isinstance(expected, dict):
        unknown = sorted(set(payload) - set(expected))
        if unknown:
            raise ValueError(
                f"The payload for {request.tool} has unknown keys {unknown}; expected keys:"
                f" {sorted(expected)}."
            )
