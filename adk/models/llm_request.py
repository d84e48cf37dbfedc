"""LlmRequest: everything one model call receives.

Runs on: activity side (built in the model-step activity from the session store).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from google.genai import types
from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from ..tools.base_tool import BaseTool


class LlmRequest(BaseModel):
    """Model name, contents and generation config (system instruction, tools)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: str | None = None
    contents: list[types.Content] = Field(default_factory=list)
    config: types.GenerateContentConfig = Field(default_factory=types.GenerateContentConfig)
    live_connect_config: types.LiveConnectConfig = Field(default_factory=types.LiveConnectConfig)
    tools_dict: dict[str, Any] = Field(default_factory=dict, exclude=True)
    """Tool name -> BaseTool, for dispatch (not sent to the model)."""

    def append_instructions(self, instructions: list[str] | types.Content) -> list[types.Content]:
        """Append instructions to the system instruction, joined by blank lines.

        A Content's text parts go to the system instruction; its other parts
        (files, blobs) are returned as user contents referring to them.
        """
        if isinstance(instructions, types.Content):
            texts = [p.text for p in instructions.parts or [] if p.text]
            others = [p for p in instructions.parts or [] if not p.text]
            if texts:
                self._append_text("\n\n".join(texts))
            return [types.Content(role="user", parts=others)] if others else []
        if instructions:
            self._append_text("\n\n".join(instructions))
        return []

    def _append_text(self, text: str) -> None:
        current = self.config.system_instruction
        if not current:
            self.config.system_instruction = text
        elif isinstance(current, str):
            self.config.system_instruction = current + "\n\n" + text
        else:
            raise TypeError("system_instruction must be a string to append instructions")

    def append_tools(self, tools: list[BaseTool]) -> None:
        """Add the tools' declarations to the config and register them for dispatch."""
        declarations = []
        for tool in tools:
            declaration = tool._get_declaration()
            if declaration is None:
                continue
            declarations.append(declaration)
            self.tools_dict[tool.name] = tool
        if not declarations:
            return
        if self.config.tools is None:
            self.config.tools = []
        for existing in self.config.tools:
            if isinstance(existing, types.Tool) and existing.function_declarations is not None:
                existing.function_declarations.extend(declarations)
                return
        self.config.tools.append(types.Tool(function_declarations=declarations))

    def set_output_schema(self, base_model: type[BaseModel]) -> None:
        """Ask the model for JSON matching `base_model`."""
        self.config.response_schema = base_model
        self.config.response_mime_type = "application/json"
