"""BaseLlm: the interface a model implements (subclass it for a custom model).

Runs on: activity side (called from the model-step activity).
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncGenerator

from google.genai import types
from pydantic import BaseModel, ConfigDict

from ._capabilities import LlmCapabilities
from .llm_request import LlmRequest
from .llm_response import LlmResponse


class BaseLlm(BaseModel):
    """A model. Implement `generate_content_async`; register the class in LLMRegistry."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: str
    """The model name, e.g. 'gemini-2.5-flash'."""

    @property
    def capabilities(self) -> LlmCapabilities:
        """What this model supports; override (a plain property) to declare it. Not
        overridden: google-adk 2.13's deprecated name-based fallback (a Gemini name on
        Vertex AI takes an output schema with tools, with a FutureWarning)."""
        from ..flows.llm_flows.basic import output_schema_and_tools

        granted = output_schema_and_tools(self.model)
        if granted:
            warnings.warn(
                f"{type(self).__name__} relies on name-based detection of"
                " output_schema_and_tools. Override BaseLlm.capabilities to declare"
                " it explicitly; this fallback will be removed in a future release.",
                FutureWarning,
                stacklevel=3,
            )
        return LlmCapabilities(output_schema_and_tools=granted)

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

    def _maybe_append_user_content(self, llm_request: LlmRequest) -> None:
        """End the contents with a user turn, so the model has something to answer.

        google-adk 2.13's texts: with no contents, a request to follow the system
        instruction; after a model turn, a request to go on (or sum up).
        """
        if not llm_request.contents:
            text = "Handle the requests as specified in the System Instruction."
        elif llm_request.contents[-1].role != "user":
            text = (
                "Continue processing previous requests as instructed."
                " Exit or provide a summary if no more outputs are needed."
            )
        else:
            return
        llm_request.contents.append(types.Content(role="user", parts=[types.Part(text=text)]))
