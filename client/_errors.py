"""Errors a client sees, with messages that say what to do.

Runs on: process side.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import pydantic_core
from temporalio.client import WorkflowFailureError
from temporalio.exceptions import ApplicationError, FailureError

from workflows.errors import RaisedError, find_raised


class SessionBusyError(Exception):
    """The session already has a running invocation."""

    def __init__(self, session_id: str, workflow_id: str) -> None:
        super().__init__(
            f"Session {session_id!r} already has an invocation running (workflow {workflow_id})."
            " Wait for it to finish, or cancel it: temporal workflow cancel --workflow-id"
            f" '{workflow_id}'."
        )
        self.session_id = session_id
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


def rebuild(raised: RaisedError) -> BaseException | None:
    """An instance of the raised class whose str() is the original's, else None."""
    cls = _find_class(raised.module, raised.qualname)
    if cls is None:
        return None
    if raised.line_errors is not None and issubclass(cls, pydantic_core.ValidationError):
        try:
            return cls.from_exception_data(raised.title or "", raised.line_errors)  # type: ignore[arg-type]
        except Exception:  # an error type pydantic cannot rebuild: keep its text below
            pass
    attempts: list[tuple[Any, ...]] = [(raised.message,)]
    if raised.args is not None:
        attempts.insert(0, tuple(raised.args))
    for args in attempts:
        try:
            error = cls(*args)
        except Exception:
            continue
        if str(error) == raised.message:
            return error
    try:  # a class whose constructor takes other arguments: its text, unconstructed
        error = cls.__new__(cls)
        BaseException.__init__(error, raised.message)
    except Exception:
        return None
    return error if _str_or_none(error) == raised.message else None


def _find_class(module_name: str, qualname: str) -> type[BaseException] | None:
    # only from packages this process already uses: a name read from workflow history
    # never makes the caller import (run) a package it did not load itself
    if module_name.split(".")[0] not in sys.modules:
        return None
    try:
        target: Any = sys.modules.get(module_name) or importlib.import_module(module_name)
        for part in qualname.split("."):
            target = getattr(target, part)
    except Exception:  # not importable in this process
        return None
    return target if isinstance(target, type) and issubclass(target, BaseException) else None


def _str_or_none(error: BaseException) -> str | None:
    try:
        return str(error)
    except Exception:
        return None
