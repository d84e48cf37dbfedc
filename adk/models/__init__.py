"""Models: the BaseLlm interface, request/response types, the registry, and Gemini.

Runs on: activity side (worker process).

Gemini is imported lazily (and registered in the LLMRegistry when a name is
first resolved): the workflow side imports this package for LlmResponse and
must not pull in the google-genai client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._unported import unported_attribute
from ._capabilities import LlmCapabilities
from .base_llm import BaseLlm
from .llm_request import LlmRequest
from .llm_response import LlmResponse
from .registry import LLMRegistry

if TYPE_CHECKING:
    from .google_llm import Gemini

__all__ = ["BaseLlm", "Gemini", "LLMRegistry", "LlmCapabilities", "LlmRequest", "LlmResponse"]


def __getattr__(name: str) -> Any:
    if name != "Gemini":
        raise unported_attribute(__name__, name)
    from .google_llm import Gemini

    globals()["Gemini"] = Gemini
    return Gemini
