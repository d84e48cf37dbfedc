"""ExampleTool: few-shot examples in the system instruction (google.adk's).

Runs on: activity side (the model step runs each tool's process_llm_request).
It declares nothing to the model: it only appends the examples block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

from pydantic import TypeAdapter

from ..errors.tool_execution_error import ToolErrorType, ToolExecutionError
from ..examples import example_util
from ..examples.base_example_provider import BaseExampleProvider
from ..examples.example import Example
from .base_tool import BaseTool
from .tool_configs import BaseToolConfig

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest
    from .tool_configs import ToolArgsConfig
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

    @classmethod
    def from_config(cls, config: ToolArgsConfig, config_abs_path: str) -> ExampleTool:
        """From YAML: `args: {examples: [...]}` or the fully qualified name of a
        BaseExampleProvider instance."""
        from ..agents.config_agent_utils import resolve_fully_qualified_name

        examples = ExampleToolConfig.model_validate(config.model_dump()).examples
        if isinstance(examples, str):
            provider = resolve_fully_qualified_name(examples)
            if not isinstance(provider, BaseExampleProvider):
                raise ToolExecutionError(
                    message="Example provider must be an instance of BaseExampleProvider.",
                    error_type=ToolErrorType.BAD_REQUEST,
                )
            return cls(provider)
        if isinstance(examples, list):
            return cls(examples)
        raise ToolExecutionError(
            message="Example tool config must be a list of examples or a fully-qualified"
            " name to a BaseExampleProvider object in code.",
            error_type=ToolErrorType.BAD_REQUEST,
        )


class ExampleToolConfig(BaseToolConfig):
    """An ExampleTool's YAML `args`."""

    examples: Union[list[Example], str]
    """The examples, or the fully qualified name of a BaseExampleProvider in code."""
