"""UnimplementedTool: a google.adk tool whose behaviour durable-adk does not have yet.

Runs on: process side. Its module-level instances (google_search, load_memory, ...)
import as in google.adk; an LlmAgent whose tools include one raises
NotImplementedError at construction instead of running without it.
"""

from __future__ import annotations

from .base_tool import BaseTool


class UnimplementedTool(BaseTool):
    """Base of the tools that exist by name only, for now."""

    feature: str = ""
    """What is missing, for the error message."""
