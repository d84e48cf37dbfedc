"""A message for a session whose invocation runs, from the client's side.

Runs on: process side. The start path: a start that finds the session's workflow
running sends the message to it (`adk_submit`, see workflows/_busy.py), which
refuses it (SessionBusyError), queues it or lets it interrupt, by the app's busy
policy. A queued or interrupting message runs as a later run of the same workflow
(continue-as-new); `outcome` follows the runs to the one that tells how the
sender's own invocation ended.
"""

from __future__ import annotations

from typing import Any

from temporalio.client import (
    Client,
    WorkflowContinuedAsNewError,
    WorkflowFailureError,
    WorkflowHandle,
    WorkflowUpdateFailedError,
)
from temporalio.exceptions import ApplicationError
from temporalio.service import RPCError, RPCStatusCode

from workflows import names
from workflows.contracts import EndedInvocation, InvocationInput, InvocationResult, Submitted
from workflows.errors import RAISED_MARK

from ._errors import InvocationFailedError, InvocationInterruptedError, SessionBusyError


async def submit(temporal: Client, workflow_id: str, request: InvocationInput) -> Submitted | None:
    """Send `request` to the session's running invocation; its answer, or None when
    no invocation runs any more (start one); SessionBusyError when it is refused.

    The update's id is the invocation id: a retried send is the same update."""
    handle = temporal.get_workflow_handle(workflow_id)
    try:
        return await handle.execute_update(
            names.UPDATE_SUBMIT, request, id=request.invocation_id, result_type=Submitted
        )
    except WorkflowUpdateFailedError as error:
        cause = error.cause
        kind = cause.type if isinstance(cause, ApplicationError) else None
        if kind == names.ENDED_ERROR:
            return None
        waiting = isinstance(cause, ApplicationError) and "waits for an answer" in cause.message
        # refused by the policy, or by a workflow that predates busy policies
        raise SessionBusyError(request.session.session_id, workflow_id, waiting) from error
    except RPCError as error:
        if error.status == RPCStatusCode.NOT_FOUND:  # it ended meanwhile
            return None
        raise


async def outcome(
    temporal: Client, handle: WorkflowHandle[Any, InvocationResult], invocation_id: str
) -> InvocationResult:
    """The result of invocation `invocation_id`, following the session workflow's runs
    from `handle`'s (the one that started it, or that took its message): a run that
    continued as new tells, in the next run's input, how the invocation it ran ended.
    Raises what the invocation raised, as a failed workflow does (WorkflowFailureError,
    which `invocation_error` turns into the app's exception)."""
    workflow_id = handle.id
    while True:
        try:
            result = await handle.result(follow_runs=False)
        except WorkflowContinuedAsNewError as moved:
            run_id = moved.new_execution_run_id
            ended = (await input_of(temporal, workflow_id, run_id)).handed_over
            if ended is not None and ended.invocation_id == invocation_id:
                return _ended(ended, workflow_id)
            # not this one's run yet (a message queued before it ran): the next run
            handle = temporal.get_workflow_handle(
                workflow_id, run_id=run_id, result_type=InvocationResult
            )
            continue
        if result.invocation_id != invocation_id:  # (a run that dropped its queue)
            raise InvocationFailedError(
                f"Invocation {invocation_id} never ran: the session's workflow"
                f" {workflow_id} ended without it.",
                None,
            )
        return result


async def input_of(temporal: Client, workflow_id: str, run_id: str) -> InvocationInput:
    handle = temporal.get_workflow_handle(workflow_id, run_id=run_id)
    async for first in handle.fetch_history_events(page_size=1):
        started = first.workflow_execution_started_event_attributes
        (sent,) = await temporal.data_converter.decode(started.input.payloads, [InvocationInput])
        return sent  # type: ignore[no-any-return]
    raise InvocationFailedError(f"Run {run_id} of workflow {workflow_id} has no history.", None)


def _ended(ended: EndedInvocation, workflow_id: str) -> InvocationResult:
    if ended.status == "completed" and ended.result is not None:
        return ended.result
    if ended.status == "interrupted":
        raise InvocationInterruptedError(
            f"Invocation {ended.invocation_id} was interrupted before its next model call by"
            f" a newer message (invocation {ended.interrupted_by}); its events so far are"
            " in the session.",
            ended.invocation_id,
            ended.interrupted_by,
        )
    details: list[Any] = []
    if ended.raised is not None:
        details.append({RAISED_MARK: ended.raised.model_dump(exclude_none=True)})
    message = ended.error_message or f"Invocation {ended.invocation_id} {ended.status}."
    cause = ApplicationError(message, *details, type=ended.error_type, non_retryable=True)
    # as the run's own failure would reach the caller: one path rebuilds the exception
    raise WorkflowFailureError(cause=cause)
