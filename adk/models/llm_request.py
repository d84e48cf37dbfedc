"""LlmRequest: everything one model call receives.

Runs on: activity side (built in the model-step activity from the session store).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from google.genai import types
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from ..utils._copying import deep_copy

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
    cache_config: Any | None = None
    """Context caching (not implemented: Gemini raises NotImplementedError when set)."""
    cache_metadata: Any | None = None
    """Context caching (not implemented): kept as data."""
    cacheable_contents_token_count: int | None = None
    """Context caching (not implemented): kept as data."""
    previous_interaction_id: str | None = None
    """Interactions API (not implemented: Gemini raises NotImplementedError when set)."""
    service_tier: str | None = None
    """Serving tier (not implemented: Gemini raises NotImplementedError when set)."""

    _dynamic_instructions: list[str] = PrivateAttr(default_factory=list)
    """Instructions tools added while they were resolved (load_artifacts' list): appended
    to the system instruction once every tool has run (google-adk 2.13's order)."""
    _has_static_instruction: bool = PrivateAttr(default=False)
    """A static_instruction put non-text parts in `contents` (they stay a stable prefix)."""
    _static_instruction_prefix_end_index: int | None = PrivateAttr(default=None)
    _contents_shared: bool = PrivateAttr(default=False)
    """`contents` holds the model step's shared contents (flows/llm_flows/_contents_memo.py):
    the engine reads them; before anything may change one, `_own_contents` copies them."""

    def _append_dynamic_instructions(self, instructions: list[str]) -> None:
        """Queue instructions a tool adds (see `_dynamic_instructions`)."""
        self._dynamic_instructions.extend(instructions)

    def _own_contents(self) -> None:
        """Make `contents` this request's own (copies), so changing them in place is safe.

        Called before the request reaches code that may change a content in place: a
        callback or plugin, a tool's process_llm_request, a model we do not know, and
        the request processors that rewrite parts."""
        if self._contents_shared:
            self.contents = [deep_copy(content) for content in self.contents]
            self._contents_shared = False

    def _own_content(self, index: int) -> types.Content:
        """`contents[index]`, made this request's own first (for a processor that
        changes a few contents in place)."""
        if self._contents_shared:
            self.contents[index] = deep_copy(self.contents[index])
        return self.contents[index]

    def append_instructions(self, instructions: list[str] | types.Content) -> list[types.Content]:
        """Append instructions to the system instruction, joined by blank lines.

        A Content's text parts go to the system instruction; each inline or
        file part is named there by a reference and becomes a user content of
        its own (added to `contents` and returned). The texts are google-adk 2.13's.
        """
        if isinstance(instructions, types.Content):
            texts: list[str] = []
            user_contents: list[types.Content] = []
            for part in instructions.parts or []:
                if part.text:
                    texts.append(part.text)
                elif part.inline_data or part.file_data:
                    reference, content = _non_text_reference(part, len(user_contents))
                    texts.append(reference)
                    user_contents.append(content)
            if texts:
                self._append_text("\n\n".join(texts))
            if user_contents:
                self.contents.extend(user_contents)
                self._has_static_instruction = True
            return user_contents
        if instructions:
            self._append_text("\n\n".join(instructions))
        return []

    def _insert_transient_user_content(self, contents: list[types.Content]) -> None:
        """Put request-scoped user contents before the latest plain user turn.

        A function response or a model content ends that turn (the contents go
        after it). Non-text static_instruction contents lead the request the
        first time, and later insertions stay behind them.
        """
        if not contents:
            return
        if self._has_static_instruction and self._static_instruction_prefix_end_index is None:
            self.contents[0:0] = contents
            self._static_instruction_prefix_end_index = len(contents)
            return
        insert_at = len(self.contents)
        for index in range(len(self.contents) - 1, -1, -1):
            content = self.contents[index]
            if content.role != "user" or any(p.function_response for p in content.parts or []):
                insert_at = index + 1
                break
            insert_at = index
        if self._static_instruction_prefix_end_index is not None:
            insert_at = max(insert_at, self._static_instruction_prefix_end_index)
        self.contents[insert_at:insert_at] = contents

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

    def set_output_schema(self, output_schema: Any = None, *, base_model: Any = None) -> None:
        """Ask the model for JSON matching `output_schema` (base_model: its old name)."""
        schema = output_schema or base_model
        if schema is None:
            raise ValueError(
                "Either output_schema or base_model must be provided."
                " Pass output_schema=<your_schema> (base_model is deprecated)."
            )
        self.config.response_schema = schema
        self.config.response_mime_type = "application/json"


def _non_text_reference(part: types.Part, number: int) -> tuple[str, types.Content]:
    """The system-instruction reference to an inline or file part, and its user content."""
    if part.inline_data:
        blob = part.inline_data
        reference_id = f"inline_data_{number}"
        info = [f"'{blob.display_name}'"] if blob.display_name else []
        if blob.mime_type:
            info.append(f"type: {blob.mime_type}")
        label, carried = "inline binary data", types.Part(inline_data=blob)
        intro = f"Referenced inline data: {reference_id}"
    else:
        file = part.file_data
        assert file is not None
        reference_id = f"file_data_{number}"
        info = [f"'{file.display_name}'"] if file.display_name else []
        if file.file_uri:
            info.append(f"URI: {file.file_uri}")
        if file.mime_type:
            info.append(f"type: {file.mime_type}")
        label, carried = "file data", types.Part(file_data=file)
        intro = f"Referenced file data: {reference_id}"
    shown = f" ({', '.join(info)})" if info else ""
    content = types.Content(role="user", parts=[types.Part.from_text(text=intro), carried])
    return f"[Reference to {label}: {reference_id}{shown}]", content
