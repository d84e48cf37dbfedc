"""ActivityOptions: Temporal timeouts and retries for model steps and tool calls.

durable-adk's one addition to ADK's agent and tool signatures. Runs on: both
sides (pure data; recorded in the agent spec the workflow runs on).
"""

from __future__ import annotations

from datetime import timedelta

from pydantic import BaseModel, ConfigDict


class ActivityOptions(BaseModel):
    """Overrides for one kind of activity; unset fields keep the defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    start_to_close_timeout: timedelta | None = None
    """Longest one attempt may run."""
    schedule_to_close_timeout: timedelta | None = None
    """Longest all attempts together may take."""
    heartbeat_timeout: timedelta | None = None
    """A worker that stops heartbeating for this long is presumed dead (the call is retried)."""
    initial_interval: timedelta | None = None
    """First retry delay."""
    backoff_coefficient: float | None = None
    maximum_interval: timedelta | None = None
    maximum_attempts: int | None = None
    """0 means unlimited."""

    def merged_over(self, base: ActivityOptions) -> ActivityOptions:
        """These options with `base` filling the unset fields."""
        return base.model_copy(update=self.model_dump(exclude_none=True))


DEAD_WORKER_TIMEOUT = timedelta(seconds=10)
"""Default heartbeat timeout: how long a call on a worker that died (SIGKILL, lost host)
waits before Temporal retries it on another. The activity beats every third of it."""

MODEL_DEFAULTS = ActivityOptions(
    start_to_close_timeout=timedelta(minutes=5),
    heartbeat_timeout=DEAD_WORKER_TIMEOUT,
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=1),
    maximum_attempts=8,
)
TOOL_DEFAULTS = ActivityOptions(
    start_to_close_timeout=timedelta(minutes=10),
    heartbeat_timeout=DEAD_WORKER_TIMEOUT,
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=1),
    maximum_attempts=5,
)

CODE_DEFAULTS = ActivityOptions(
    start_to_close_timeout=timedelta(hours=1),
    heartbeat_timeout=DEAD_WORKER_TIMEOUT,
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(minutes=1),
    maximum_attempts=3,
)
"""A code execution (`adk.execute_code`). Only a lost attempt is retried (a dead
worker, a timeout): the executor's own exception fails at once, as in google-adk.
The one-hour limit holds for an executor without `timeout_seconds`."""
CODE_TIMEOUT_MARGIN = timedelta(seconds=30)
"""An executor with `timeout_seconds` ends the code itself and reports the timeout to
the model; the activity's limit is that plus this margin (stopping the process and
reading what it wrote take up to 10 s), a backstop for an executor that hangs."""


def code_options(timeout_seconds: float | None) -> ActivityOptions | None:
    """The code-execution activity's options for an executor's `timeout_seconds`."""
    if not timeout_seconds:
        return None
    return ActivityOptions(
        start_to_close_timeout=timedelta(seconds=timeout_seconds) + CODE_TIMEOUT_MARGIN
    )


class PayloadTooLargeError(ValueError):
    """A tool result or model response too large for Temporal to record (its payload
    limit, 2 MB by default). Not retried: running the call again would not shrink it."""
