"""url_context: Gemini's built-in URL reading (not implemented yet).

Runs on: process side. An agent with this tool raises NotImplementedError.
"""

from __future__ import annotations

from ._unimplemented_tool import UnimplementedTool


class UrlContextTool(UnimplementedTool):
    """A model built-in tool: Gemini reads the URLs in the conversation."""

    feature = "Gemini's built-in URL context tool (url_context)"

    def __init__(self) -> None:
        super().__init__(name="url_context", description="url_context")


url_context = UrlContextTool()
