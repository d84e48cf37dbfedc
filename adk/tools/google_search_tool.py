"""google_search: Gemini's built-in Google Search (not implemented yet).

Runs on: process side. An agent with this tool raises NotImplementedError.
"""

from __future__ import annotations

from ._unimplemented_tool import UnimplementedTool


class GoogleSearchTool(UnimplementedTool):
    """A model built-in tool: Gemini searches Google itself (google.adk's signature)."""

    feature = "Gemini's built-in Google Search tool (google_search)"

    def __init__(self, *, bypass_multi_tools_limit: bool = False, model: str | None = None):
        super().__init__(name="google_search", description="google_search")
        self.bypass_multi_tools_limit = bypass_multi_tools_limit
        self.model = model


google_search = GoogleSearchTool()
