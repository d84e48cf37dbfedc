"""LlmAgent's YAML schema: mirrors `google.adk.agents.llm_agent_config`.

Runs on: process side (read when an app's YAML config is loaded).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Literal

from google.genai import types
from pydantic import ConfigDict, Field, model_validator
from typing_extensions import deprecated

from ..tools.tool_configs import ToolConfig
from .base_agent_config import _DEPRECATED, BaseAgentConfig
from .common_configs import CodeConfig

if TYPE_CHECKING:  # google-genai's ContentUnion names PIL, which type checkers may lack
    _ContentUnion = Any
else:
    _ContentUnion = types.ContentUnion

with warnings.catch_warnings():  # subclassing a deprecated class warns; using it should
    warnings.simplefilter("ignore", DeprecationWarning)

    @deprecated(_DEPRECATED.format("LlmAgentConfig"))
    class LlmAgentConfig(BaseAgentConfig):
        """The keys an LlmAgent's YAML takes (`instruction` is required)."""

        # static_instruction is a ContentUnion, which holds types without a schema
        model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

        agent_class: str = Field(
            default="LlmAgent",
            description="The value is used to uniquely identify the LlmAgent class. If it is"
            " empty, it is by default an LlmAgent.",
        )
        model: str | None = Field(
            default=None,
            description="Optional. A model name; when unset, inherited from the nearest"
            " LlmAgent ancestor, else LlmAgent's default model.",
        )
        model_code: CodeConfig | None = Field(
            default=None,
            description="Optional. A BaseLlm instance in code. Cannot be set together with"
            " `model`.",
        )
        instruction: str = Field(description="Required. LlmAgent.instruction.")
        static_instruction: _ContentUnion | None = Field(
            default=None, description="Optional. LlmAgent.static_instruction."
        )
        disallow_transfer_to_parent: bool | None = Field(
            default=None, description="Optional. LlmAgent.disallow_transfer_to_parent."
        )
        disallow_transfer_to_peers: bool | None = Field(
            default=None, description="Optional. LlmAgent.disallow_transfer_to_peers."
        )
        input_schema: CodeConfig | None = Field(
            default=None, description="Optional. LlmAgent.input_schema."
        )
        output_schema: CodeConfig | None = Field(
            default=None, description="Optional. LlmAgent.output_schema."
        )
        output_key: str | None = Field(default=None, description="Optional. LlmAgent.output_key.")
        include_contents: Literal["default", "none"] = Field(
            default="default", description="Optional. LlmAgent.include_contents."
        )
        tools: list[ToolConfig] | None = Field(
            default=None, description="Optional. LlmAgent.tools."
        )
        before_model_callbacks: list[CodeConfig] | None = Field(
            default=None, description="Optional. LlmAgent.before_model_callbacks."
        )
        after_model_callbacks: list[CodeConfig] | None = Field(
            default=None, description="Optional. LlmAgent.after_model_callbacks."
        )
        before_tool_callbacks: list[CodeConfig] | None = Field(
            default=None, description="Optional. LlmAgent.before_tool_callbacks."
        )
        after_tool_callbacks: list[CodeConfig] | None = Field(
            default=None, description="Optional. LlmAgent.after_tool_callbacks."
        )
        generate_content_config: types.GenerateContentConfig | None = Field(
            default=None, description="Optional. LlmAgent.generate_content_config."
        )

        @model_validator(mode="after")
        def _validate_model_sources(self) -> LlmAgentConfig:
            if self.model and self.model_code:
                raise ValueError(
                    "Only one of `model` or `model_code` should be set, but both"
                    f" were provided. Got model={self.model!r} and"
                    f" model_code={self.model_code!r}."
                )
            return self
