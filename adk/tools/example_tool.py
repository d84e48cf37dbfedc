"""ExampleTool: few-shot examples in the system instruction (google.adk's).

Runs on: activity side (the model step runs each tool's process_llm_request).
It declares nothing to the model: it only appends the examples block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

from pydantic import TypeAdapter

from ..examples import example_util
from ..examples.base_example_provider import BaseExampleProvider
from ..examples.example import Example
from .base_tool import BaseTool

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest
    from .tool_context import ToolContext


class ExampleTool(BaseTool):
    """Adds (few-shot) examples to the LLM request."""

    def __init__(self, examples: Union[list[Example], BaseExampleProvider]) -> None:
        # name and description are never shown: the tool only edits the request
        super().__init__(name="example_tool", description="example tool")
        self.examples: list[Example] | BaseExampleProvider = (
            TypeAdapter(list[Example]).validate_python(examples)
            if isinstance(examples, list)
            else examples
        )

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        user_content = tool_context.user_content
        if not user_content or not user_content.parts:
            return
        query = " ".join(p.text for p in user_content.parts if p.text and not p.thought)
        if not query and isinstance(self.examples, BaseExampleProvider):
            return
        llm_request.append_instructions(
            [example_util.build_example_si(self.examples, query, llm_request.model)]
        )
