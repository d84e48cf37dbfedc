"""Mirrors `google.adk.tools.openapi_tool.openapi_spec_parser`.

Runs on: activity side (worker process). 2.13's ToolAuthHandler (the interactive
credential flow) is not ported: its names raise NotImplementedError.
"""

from __future__ import annotations

from typing import Any

from ...._unported import unported_attribute
from .openapi_spec_parser import OpenApiSpecParser, OperationEndpoint, ParsedOperation
from .openapi_toolset import OpenAPIToolset
from .operation_parser import OperationParser
from .rest_api_tool import RestApiTool, snake_to_lower_camel

__all__ = [
    "OpenApiSpecParser",
    "OperationEndpoint",
    "ParsedOperation",
    "OpenAPIToolset",
    "OperationParser",
    "RestApiTool",
    "snake_to_lower_camel",
]


def __getattr__(name: str) -> Any:
    raise unported_attribute(__name__, name)
