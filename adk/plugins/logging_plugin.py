"""LoggingPlugin: google.adk's plugin that logs every callback (not ported yet).

Runs on: process side.
"""

from __future__ import annotations

from typing import Any

from .._unimplemented import not_implemented
from .base_plugin import BasePlugin


class LoggingPlugin(BasePlugin):
    """Logs invocations, agents, model and tool calls (its name and signature only, for now)."""

    def __init__(
        self, name: str = "logging_plugin", *, tool_result_classifier: Any | None = None
    ) -> None:
        super().__init__(name)
        self.tool_result_classifier = tool_result_classifier
        raise not_implemented("LoggingPlugin", "google.adk's LoggingPlugin")
