"""A tool's failure that a retry can fix, and whether a retry is still to come.

Runs on: activity side. durable-adk's seam between a tool (here: MCP tools and
toolsets) and Temporal's retries, without the tool knowing Temporal: the
model-step and tool-call activities set `retry_available` while their retry
policy has attempts left. A tool whose connection failed then raises
`TransientToolError` (the activity fails its attempt and Temporal runs it again,
reconnecting); on the last attempt it does what google-adk 2.13 does instead.
"""

from __future__ import annotations

from contextvars import ContextVar

retry_available: ContextVar[bool] = ContextVar("durable_adk_retry_available", default=False)
"""True inside an activity attempt that Temporal will retry if it fails."""


class TransientToolError(ConnectionError):
    """A tool (or toolset listing) lost its connection; the attempt is retried."""
