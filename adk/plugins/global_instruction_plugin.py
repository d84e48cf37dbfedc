"""GlobalInstructionPlugin: one instruction placed before every agent's, app-wide.

Runs on: activity side (its before_model hook runs in the model step), as google-adk 2.13's:
a string is templated from state (`{key}`), a callable is called with the context
(and awaited if it returns an awaitable); the result is prepended to the request's
system instruction, whatever shape that has.
"""

from __future__ import annotations

import inspect
from typing import Any

from google.genai import types

from ..utils import instructions_utils
from .base_plugin import BasePlugin


def _prepend_instruction(prefix: str, existing: Any) -> Any:
    if isinstance(existing, str):
        return f"{prefix}\n\n{existing}"
    if isinstance(existing, types.Content):
        parts = [types.Part.from_text(text=prefix), *(existing.parts or [])]
        return existing.model_copy(update={"parts": parts})
    return [prefix, *(existing if isinstance(existing, list) else [existing])]


class GlobalInstructionPlugin(BasePlugin):
    """Prepends `global_instruction` to the system instruction of every model request."""

    def __init__(self, global_instruction: Any = "", name: str = "global_instruction") -> None:
        super().__init__(name=name)
        self.global_instruction = global_instruction

    async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
        if not self.global_instruction:
            return None
        instruction = await self._resolve_global_instruction(callback_context)
        if not instruction:
            return None
        existing = llm_request.config.system_instruction
        llm_request.config.system_instruction = (
            _prepend_instruction(instruction, existing) if existing else instruction
        )
        return None

    async def _resolve_global_instruction(self, readonly_context: Any) -> str:
        if isinstance(self.global_instruction, str):
            return await instructions_utils.inject_session_state(
                self.global_instruction, readonly_context
            )
        instruction = self.global_instruction(readonly_context)
        if inspect.isawaitable(instruction):
            instruction = await instruction
        return instruction  # type: ignore[no-any-return]
