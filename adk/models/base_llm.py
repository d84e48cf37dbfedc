"""BaseLlm: the interface a model implements (subclass it for a custom model).

Runs on: activity side (called from the model-step activity).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

from pydantic import BaseModel, ConfigDict

from .llm_request import LlmRequest
from .llm_response import LlmResponse


class BaseLlm(BaseModel):
    """A model. Implement `generate_content_async`; register the class in LLMRegistry."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: str
    """The model name, e.g. 'gemini-2.5-flash'."""

    @classmethod
    def supported_models(cls) -> list[str]:
        """Regular expressions of the model names this class serves."""
        return []

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        """Yield one LlmResponse (or, when streaming, partial chunks then the whole)."""
        raise NotImplementedError(
            f"{type(self).__name__} does not implement generate_content_async"
        )
        yield  # pragma: no cover  (makes this an async generator)
