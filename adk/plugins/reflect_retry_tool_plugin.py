"""ReflectAndRetryToolPlugin: google.adk's plugin that turns a tool error into a
retry hint for the model (not ported yet).

Runs on: process side.
"""

from __future__ import annotations

from enum import Enum

from .._unimplemented import not_implemented
from .base_plugin import BasePlugin


class TrackingScope(Enum):
    """Where consecutive failures are counted."""

    INVOCATION = "invocation"
    GLOBAL = "global"


class ReflectAndRetryToolPlugin(BasePlugin):
    """Reflects on a failed tool call and lets the model retry it (its name and
    signature only, for now)."""

    def __init__(
        self,
        name: str = "reflect_retry_tool_plugin",
        max_retries: int = 3,
        throw_exception_if_retry_exceeded: bool = True,
        tracking_scope: TrackingScope = TrackingScope.INVOCATION,
    ) -> None:
        super().__init__(name)
        if max_retries < 0:
            raise ValueError("max_retries must be a non-negative integer.")
        self.max_retries = max_retries
        self.throw_exception_if_retry_exceeded = throw_exception_if_retry_exceeded
        self.scope = tracking_scope
        raise not_implemented("ReflectAndRetryToolPlugin", "google.adk's ReflectAndRetryToolPlugin")
