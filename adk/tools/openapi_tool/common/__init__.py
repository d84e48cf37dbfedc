"""Mirrors `google.adk.tools.openapi_tool.common`.

Runs on: activity side (worker process).
"""

from __future__ import annotations

from . import common

__all__ = ["common"]
