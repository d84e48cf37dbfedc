"""Answering what invocations wait for: list pending requests, approve, reject, respond.

Runs on: process side.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from temporalio.client import Client, WorkflowUpdateFailedError
from temporalio.service import RPCError, RPCStatusCode

from adk.apps.app import validate_app_name
from workflows import names
from workflows.contracts import HumanAnswer, InvocationStatus, PendingRequest, SessionRef

from ._outage import KeepTrying


class AnswerRejectedError(Exception):
    """The invocation refused the answer (unknown id, already answered, wrong kind...)."""


class InvocationEndedError(AnswerRejectedError):
    """The invocation has ended: its session's next message may carry the answer."""

    def __init__(self, message: str, session: SessionRef) -> None:
        super().__init__(message)
        self.session = session


async def invocation_status(
    temporal: Client, workflow_id: str, keep: KeepTrying | None = None
) -> InvocationStatus:
    handle = temporal.get_workflow_handle(workflow_id)

    async def query(_: bool) -> InvocationStatus:
        return await handle.query(names.QUERY_STATUS, result_type=InvocationStatus)  # type: ignore[no-any-return]

    if keep is None:  # asked once (a stream checking now and then)
        return await query(False)
    return await keep.call(workflow_id, query)


STATUS_QUERY_SECONDS = 10.0
"""How long `list_pending` waits for one invocation's status: a waiting invocation
whose app has no worker running would otherwise hold the listing for the server's
query timeout (30 s) each."""


@dataclass(frozen=True)
class PendingListing:
    """What waits, across invocations: each request with its workflow id, and the
    waiting invocations that did not tell (no worker of their app answered)."""

    requests: list[tuple[str, PendingRequest]] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)


async def list_pending(
    temporal: Client, keep: KeepTrying, *, app_name: str | None = None
) -> PendingListing:
    """Every request waiting for an answer, across invocations (optionally of one app).

    The invocations are asked at once, each for `STATUS_QUERY_SECONDS` at most;
    through an outage each is asked again."""
    query = f'{names.SA_STATUS.name} = "waiting" AND ExecutionStatus = "Running"'
    if app_name:
        validate_app_name(app_name)  # (it goes into the query's quotes: nothing else may)
        query += f' AND {names.SA_APP.name} = "{app_name}"'

    async def listed(_: bool) -> list[str]:  # the whole list again after an outage
        return [
            execution.id
            async for execution in temporal.list_workflows(query)
            if execution.workflow_type == names.INVOCATION_WORKFLOW
        ]

    asking = asyncio.Semaphore(16)

    async def status_of(workflow_id: str) -> InvocationStatus | str | None:
        handle = temporal.get_workflow_handle(workflow_id)
        timeout = timedelta(seconds=STATUS_QUERY_SECONDS)

        async def ask(_: bool) -> InvocationStatus | str | None:
            try:
                return await handle.query(  # type: ignore[no-any-return]
                    names.QUERY_STATUS, result_type=InvocationStatus, rpc_timeout=timeout
                )
            except RPCError as error:
                if error.status == RPCStatusCode.NOT_FOUND:
                    return None  # finished between the list and the query
                if _unanswered(error):
                    return workflow_id
                raise

        async with asking:
            try:
                return await keep.call(workflow_id, ask)
            except RPCError:
                return None  # ended meanwhile (its query is refused)

    ids = await keep.call("(pending list)", listed)
    listing = PendingListing()
    for workflow_id, status in zip(ids, await asyncio.gather(*map(status_of, ids)), strict=True):
        if isinstance(status, str):
            listing.unanswered.append(status)
        elif status is not None:
            listing.requests.extend((workflow_id, request) for request in status.pending)
    return listing


def _unanswered(error: RPCError) -> bool:
    """A status query the server gave up on: the server is there, no worker answered."""
    if error.status == RPCStatusCode.DEADLINE_EXCEEDED:
        return True
    return error.status == RPCStatusCode.CANCELLED and "timeout" in error.message.lower()


async def answer(
    temporal: Client,
    keep: KeepTrying,
    workflow_id: str,
    request_id: str,
    kind: str,
    payload: Any = None,
    session: SessionRef | None = None,
    adk_message: bool = False,
    response: dict[str, Any] | None = None,
) -> str:
    """Send an answer as a validated update; AnswerRejectedError says why it was refused.

    The answer names its session (the invocation refuses it for any other): the one
    given, else the one the workflow id was made from. Through an outage it is sent
    again with the same update id: Temporal applies an update id once and gives a
    repeat the first one's outcome, so an answer whose reply was lost is not
    refused as "already answered" by its own first attempt.
    """
    if session is None:
        try:
            app_name, user_id, session_id = names.session_of(workflow_id)
        except ValueError as error:
            raise AnswerRejectedError(str(error)) from None
        session = SessionRef(app_name=app_name, user_id=user_id, session_id=session_id)
    update = {
        "approve": names.UPDATE_APPROVE,
        "reject": names.UPDATE_REJECT,
        "respond": names.UPDATE_RESPOND,
        "progress": names.UPDATE_PROGRESS,
    }[kind]
    handle = temporal.get_workflow_handle(workflow_id)
    message = HumanAnswer(
        id=request_id,
        kind=kind,  # type: ignore[arg-type]
        payload=payload,
        session=session,
        adk_message=adk_message,
        response=response,
    )
    update_id = f"answer-{uuid.uuid4()}"

    async def send(_: bool) -> str:
        return await handle.execute_update(  # type: ignore[no-any-return]
            update, message, id=update_id, result_type=str
        )

    try:
        return await keep.call(workflow_id, send)
    except WorkflowUpdateFailedError as error:
        cause = error.cause
        raise AnswerRejectedError(getattr(cause, "message", None) or str(cause)) from error
    except RPCError as error:
        text = str(error).lower()
        # (closing: it ended while the update was in flight)
        if "completed" in text or "not found" in text or "closing workflow" in text:
            why = (
                f"Invocation {workflow_id} is not running (it has finished, or never"
                " started): nothing to answer."
            )
            if "namespace" in text:  # (the CLI tells an unknown namespace by its cause)
                raise AnswerRejectedError(why) from error
            raise InvocationEndedError(why, session) from error
        raise
