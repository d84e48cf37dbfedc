"""OpenAPI tools: mirrors `google.adk.tools.openapi_tool` (needs the `openapi` extra,
FastAPI's OpenAPI models).

Runs on: activity side (worker process).
"""

from __future__ import annotations

from .openapi_spec_parser import OpenAPIToolset, RestApiTool

__all__ = ["OpenAPIToolset", "RestApiTool"]
