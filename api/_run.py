"""One /run or /run_sse request: the invocation it starts (or resumes), as a stream
of events, as google-adk 2.13's Runner.run_async yields them.

Runs on: process side. The same path as `python -m client run`: AgentClient.start
starts the session's invocation workflow and AgentClient.events streams the events
it records (over the session store); a
message of FunctionResponses that answers what the session's invocation waits for
(ADK's resume) is delivered to it (AgentClient.resume) and its events from then on
are streamed. Like an ADK turn, a stream ends when the invocation finishes or
starts waiting for an answer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from google.genai import types
from temporalio.service import RPCError

from adk.agents.run_config import RunConfig, StreamingMode
from adk.events.event import Event
from client import AgentClient, AnswerRejectedError, Invocation, SessionBusyError
from workflows.contracts import InvocationStatus
from workflows.names import invocation_workflow_id

from ._models import RunAgentRequest


class RunRefused(Exception):
    """A request the API refuses before starting anything: `status` and the text."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def run_config_of(req: RunAgentRequest) -> RunConfig:
    """The request's RunConfig; RunRefused(501) naming a field durable-adk does not
    support (never accepted and ignored)."""
    fields: dict[str, tuple[str, Any]] = {
        "streaming": ("streaming_mode", StreamingMode.SSE if req.streaming else None),
        "customMetadata": ("custom_metadata", req.custom_metadata),
        "serviceTier": ("service_tier", req.service_tier),
    }
    given = {name: value for name, value in fields.values() if value is not None}
    for field, (name, value) in fields.items():
        if value is None:
            continue
        try:
            RunConfig(**{name: value})
        except NotImplementedError as error:
            raise RunRefused(501, f"{field}: {error}") from None
    return RunConfig(**given)


async def check_request(client: AgentClient, app_name: str, req: RunAgentRequest) -> None:
    """What google-adk's api_server refuses before a run (the session must exist), and
    what ours cannot do yet."""
    try:
        invocation_workflow_id(app_name, req.user_id, req.session_id)
    except ValueError as error:
        raise RunRefused(400, str(error)) from None
    if req.new_message is None:
        if req.invocation_id is None:
            raise RunRefused(
                400,
                "Running an agent requires either a new_message or an invocation_id to"
                f" resume a previous invocation. Session: {req.session_id}, User: {req.user_id}",
            )
        raise RunRefused(
            501,
            "invocationId without newMessage (running an invocation again) is not supported"
            " by durable-adk's API server yet: send the FunctionResponses that answer its"
            " calls, or answer them through /invocations/{workflow_id}/requests/...",
        )
    exists = await client.session_service.get_state(
        app_name=app_name, user_id=req.user_id, session_id=req.session_id
    )
    if exists is None:
        raise RunRefused(404, f"Session not found: {req.session_id}")


async def start_run(
    client: AgentClient, app_name: str, req: RunAgentRequest, run_config: RunConfig
) -> tuple[Invocation, int]:
    """Start (or resume) the invocation: it and the session's sequence number after
    which its events are new. RunRefused for what the start refuses (bad input 400, a
    busy session 409), so a stream never starts with an error."""
    message = req.new_message
    assert message is not None  # (check_request)
    where: dict[str, Any] = dict(app_name=app_name, user_id=req.user_id, session_id=req.session_id)
    after = 0
    if any(p.function_response for p in message.parts or []):
        # it may go on under an earlier invocation's id: only what happens from now
        seen = await client.session_service.list_events(**where)
        after = seen[-1][0] if seen else 0
    try:
        if _is_resume(message):
            running = await _running(client, app_name, req.user_id, req.session_id)
            if running is not None and _answers_pending(message, running):
                if req.state_delta:
                    raise RunRefused(
                        501,
                        "stateDelta with FunctionResponses that answer a waiting invocation"
                        " is not supported: send the state change with the next message",
                    )
                return await client.resume(**where, message=message), after
        invocation = await client.start(
            **where, new_message=message, state_delta=req.state_delta, run_config=run_config
        )
    except ValueError as error:  # ids, an empty message, a resume message without ids
        raise RunRefused(400, str(error)) from None
    except (SessionBusyError, AnswerRejectedError) as error:
        raise RunRefused(409, str(error)) from None
    return invocation, after


async def run_events(
    client: AgentClient, invocation: Invocation, after: int
) -> AsyncIterator[Event]:
    """The invocation's events (not the user's message), until it ends or waits for an
    answer; raises what the invocation raised."""
    async for event in client.events(invocation, after_seq=after, stop_when_waiting=True):
        if event.author != "user":  # ADK yields what the agents did, not the message
            yield event


def _is_resume(message: types.Content) -> bool:
    parts = message.parts or []
    return bool(parts) and all(p.function_response for p in parts)


def _answers_pending(message: types.Content, status: InvocationStatus) -> bool:
    open_ids = {r.id for r in status.pending} | {r.call_id for r in status.pending}
    return any(
        p.function_response and p.function_response.id in open_ids for p in message.parts or []
    )


async def _running(
    client: AgentClient, app_name: str, user_id: str, session_id: str
) -> InvocationStatus | None:
    try:
        status = await client.status(invocation_workflow_id(app_name, user_id, session_id))
    except RPCError:
        return None  # no invocation yet, or none running
    return status if status.status in ("running", "waiting") else None


def event_json(event: Event) -> dict[str, Any]:
    """An event as google-adk's api_server sends it: camelCase, no None values."""
    return event.model_dump(exclude_none=True, by_alias=True, mode="json")
