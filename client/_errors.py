"""Errors a client sees, with messages that say what to do.

Runs on: process side.
"""

from __future__ import annotations

from typing import Any

from temporalio.client import WorkflowFailureError
from temporalio.exceptions import ApplicationError, FailureError

from workflows.errors import find_raised, rebuild


class SessionBusyError(Exception):
    """The session already has a running invocation (and its app's busy policy is
    `reject`, or the invocation waits for an answer)."""

    def __init__(self, session_id: str, workflow_id: str, waiting: bool = False) -> None:
        what = "an invocation waiting for an answer" if waiting else "an invocation running"
        super().__init__(
            f"Session {session_id!r} already has {what} (workflow {workflow_id})."
            " Wait for it to finish, or cancel it: temporal workflow cancel --workflow-id"
            f" '{workflow_id}'."
        )
        self.session_id = session_id
        self.workflow_id = workflow_id


class InvocationInterruptedError(Exception):
    """The invocation stopped before its next model call because a newer message for
    its session arrived (the app's busy policy is `interrupt`). Its events so far are
    in the session."""

    def __init__(self, message: str, invocation_id: str, interrupted_by: str | None) -> None:
        super().__init__(message)
        self.invocation_id = invocation_id
        self.interrupted_by = interrupted_by


class TemporalUnreachableError(Exception):
    """The client lost contact with Temporal for too long. Says nothing of the
    invocation: it may well go on (and finish) on the server."""

    def __init__(self, workflow_id: str, seconds: float, cause: BaseException) -> None:
        super().__init__(
            f"No contact with Temporal for {seconds:.0f} s ({cause}); the invocation"
            f" (workflow {workflow_id}) may still be running: reattach once the server is back."
        )
        self.workflow_id = workflow_id


class InvocationFailedError(Exception):
    """The invocation workflow failed; the message is the root cause."""

    def __init__(self, message: str, invocation: Any) -> None:
        super().__init__(message)
        self.invocation = invocation


def failure_text(error: WorkflowFailureError) -> str:
    """The most specific message of a workflow failure: the first application error's.

    Wrappers such as ActivityError ("Activity task failed") say nothing useful, so
    they only count when no application error is in the chain.
    """
    cause: BaseException | None = error.cause
    generic = []
    while cause is not None:
        if isinstance(cause, ApplicationError):
            return f"{cause.type}: {cause.message}" if cause.type else cause.message
        if isinstance(cause, FailureError):
            generic.append(cause.message)
        cause = cause.__cause__
    return generic[0] if generic else str(error)


def invocation_error(error: WorkflowFailureError, invocation: Any) -> BaseException:
    """What the caller sees for a failed invocation: the exception google-adk raises.

    A tool's, callback's or model's exception, or one of ADK's own (ValueError,
    KeyError, LlmCallsLimitExceededError, pydantic's ValidationError), comes back as
    an instance of its class with its message when the class is importable here;
    anything else (an unknown app, a store outage, a class this process lacks) is an
    InvocationFailedError whose message is the root cause.
    """
    raised = find_raised(error.cause)
    rebuilt = rebuild(raised) if raised is not None else None
    return rebuilt or InvocationFailedError(failure_text(error), invocation)
