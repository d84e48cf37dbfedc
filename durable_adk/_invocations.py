"""What the Runner asks of a session's invocation, and what it closes after one.

Runs on: process side.
"""

from __future__ import annotations

import asyncio
from typing import Any

from google.genai import types
from temporalio.client import WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode

from adk.agents._tree import all_agents
from adk.agents.base_agent import BaseAgent
from adk.agents.llm_agent import LlmAgent
from adk.events.event import Event
from workflows.names import SA_STATUS, invocation_workflow_id


async def running_invocation(client: Any, app_name: str, user_id: str, session_id: str) -> Any:
    """The status of the session's invocation while it runs (or waits); None otherwise.

    The server says first whether the workflow runs (no worker needed): only a running
    one is queried. A query of an ended one makes a worker replay its whole history to
    answer, and an uncached replay of a history with local-activity markers has failed
    in Temporal Core ("Attempted to check for LA marker handling in invalid state
    MarkerCommandCreated", seen under load in CI): the query then took its 10 s timeout."""
    workflow_id = invocation_workflow_id(app_name, user_id, session_id)
    try:
        if await session_busy(client.temporal, workflow_id) is None:
            return None  # none yet, or it has ended
        status = await client.status(workflow_id)
    except RPCError:
        return None  # it ended meanwhile
    return status if status.status in ("running", "waiting") else None


async def session_busy(temporal: Any, workflow_id: str) -> str | None:
    """ "running" or "waiting" while the session's workflow runs (asked of the server:
    no worker needed); None when it does not."""
    try:
        described = await temporal.get_workflow_handle(workflow_id).describe()
    except RPCError as error:
        if error.status == RPCStatusCode.NOT_FOUND:
            return None  # the session never ran an invocation here
        raise
    if described.status != WorkflowExecutionStatus.RUNNING:
        return None
    waiting = described.typed_search_attributes.get(SA_STATUS) == "waiting"
    return "waiting" if waiting else "running"


ABANDONED_WAIT_SECONDS = 30.0
"""How long a new message waits for the invocation its Runner's consumer stopped
reading (`break` at the final response) to finish, before SessionBusyError."""


async def finish_abandoned(
    client: Any, app_name: str, key: tuple[str, str], invocation_id: str | None
) -> bool:
    """Wait for the session's running invocation if it is `invocation_id` and does
    not wait for a human: True once the session is free, False if it stays busy."""
    if invocation_id is None:
        return False
    user_id, session_id = key
    status = await running_invocation(client, app_name, user_id, session_id)
    if status is None:
        return True  # it ended meanwhile
    if status.invocation_id != invocation_id or status.status != "running":
        return False  # another invocation, or one waiting for an answer: really busy
    handle = client.temporal.get_workflow_handle(
        invocation_workflow_id(app_name, user_id, session_id)
    )
    try:
        await asyncio.wait_for(handle.result(), ABANDONED_WAIT_SECONDS)
    except TimeoutError:
        return False
    except Exception:  # it failed or was cancelled: either way the session is free
        pass
    return True


async def close_models(root: BaseAgent) -> None:
    """Close the model clients the in-process worker opened on this loop.

    Left to the garbage collector, google-genai's client schedules its close on
    whatever event loop is running then, which may be a workflow's.
    """
    for agent in all_agents(root):
        if isinstance(agent, LlmAgent):
            await agent._close_models()


def is_resume(message: types.Content | None) -> bool:
    """A message of FunctionResponses only: answers for the calls an invocation waits for."""
    parts = message.parts if message else None
    return bool(parts) and all(p.function_response for p in parts or [])


def answers_pending(message: types.Content | None, status: Any) -> bool:
    """Whether a message's FunctionResponses answer what the running invocation waits
    for (a request's id, or a confirmed call's id)."""
    open_ids = {r.id for r in status.pending} | {r.call_id for r in status.pending}
    parts = (message.parts if message else None) or []
    return any(p.function_response and p.function_response.id in open_ids for p in parts)


def paused_on_open_calls(events: list[Event], invocation_id: str) -> bool:
    """google-adk 2.13's pause of a resumable invocation: a long-running call of its own
    (a confirmation request too) that no function response of it answers yet (an
    intermediate one counts)."""
    mine = [e for e in events if e.invocation_id == invocation_id]
    answered = {r.id for e in mine for r in e.get_function_responses()}
    return any(
        call.id in (event.long_running_tool_ids or set()) and call.id not in answered
        for event in mine
        for call in event.get_function_calls()
    )
