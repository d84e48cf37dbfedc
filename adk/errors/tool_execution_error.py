"""ToolExecutionError: mirrors `google.adk.errors.tool_execution_error`.

Runs on: process and activity side (a plain exception class).
"""

from __future__ import annotations

import enum


class ToolErrorType(str, enum.Enum):  # noqa: UP042 (as 2.13: str() differs on StrEnum)
    """HTTP-like error types (OpenTelemetry's semantics)."""

    BAD_REQUEST = "BAD_REQUEST"
    UNAUTHORIZED = "UNAUTHORIZED"
    FORBIDDEN = "FORBIDDEN"
    NOT_FOUND = "NOT_FOUND"
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
    INTERNAL_SERVER_ERROR = "INTERNAL_SERVER_ERROR"
    BAD_GATEWAY = "BAD_GATEWAY"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"
    GATEWAY_TIMEOUT = "GATEWAY_TIMEOUT"


class ToolExecutionError(Exception):
    """A tool could not run (or could not be built, e.g. from a YAML config)."""

    def __init__(self, message: str, error_type: ToolErrorType | str | None = None) -> None:
        self.message = message
        self.error_type = error_type.value if isinstance(error_type, ToolErrorType) else error_type
        super().__init__(self.message)
