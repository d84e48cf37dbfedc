"""Activity options and failure messages, shared by the workflows.

Runs on: workflow (sandbox-safe, pure).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from adk.activity_options import ActivityOptions

BOOKKEEPING: dict[str, Any] = dict(
    start_to_close_timeout=timedelta(minutes=1),
    retry_policy=RetryPolicy(
        initial_interval=timedelta(seconds=1),
        maximum_interval=timedelta(seconds=30),
        maximum_attempts=10,  # store hiccups retry; a bug does not retry forever
    ),
)

FAIL_ON: list[type[BaseException]] = [
    ArithmeticError,
    AssertionError,
    AttributeError,
    LookupError,
    TypeError,
    ValueError,
]
"""Exceptions that fail the workflow (the invocation, with their text) instead of
its task. Temporal retries a failing workflow task every 10 s, forever: whatever a
user sends, no invocation may hang in that loop. Nondeterminism and sandbox
violations still fail the task (a redeploy can fix those without losing the run)."""


def activity_kwargs(options: ActivityOptions | None, defaults: ActivityOptions) -> dict[str, Any]:
    """Temporal activity options from an ActivityOptions (unset fields from `defaults`)."""
    merged = options.merged_over(defaults) if options else defaults
    return dict(
        start_to_close_timeout=merged.start_to_close_timeout,
        schedule_to_close_timeout=merged.schedule_to_close_timeout,
        heartbeat_timeout=merged.heartbeat_timeout,
        retry_policy=RetryPolicy(
            initial_interval=merged.initial_interval or timedelta(seconds=1),
            backoff_coefficient=merged.backoff_coefficient or 2.0,
            maximum_interval=merged.maximum_interval,
            maximum_attempts=merged.maximum_attempts or 0,
            # the SDK's own type for a result the server refused as too large: it is
            # retryable by default, yet the same call gives the same result again
            non_retryable_error_types=["PayloadsTooLarge"],
        ),
    )


def failure_message(error: BaseException) -> tuple[str, str]:
    """(type, message) of the first application error in the cause chain.

    That is the error the activity (or child workflow) raised itself: its message
    says the most ("ValueError while before_tool_callback of agent a: ..."), more
    than the generic wrappers above it or the bare exception below it.
    """
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, ApplicationError):
            return cause.type or "Error", cause.message
        cause = cause.__cause__
    inner = error.__cause__ or error
    return type(inner).__name__, str(inner)
