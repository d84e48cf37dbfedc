"""Models: the BaseLlm interface, request/response types, the registry, and Gemini.

Runs on: activity side (worker process).

Importing this package registers Gemini in the LLMRegistry.
"""

from .base_llm import BaseLlm
from .google_llm import Gemini
from .llm_request import LlmRequest
from .llm_response import LlmResponse
from .registry import LLMRegistry

LLMRegistry.register(Gemini)

__all__ = ["BaseLlm", "Gemini", "LLMRegistry", "LlmRequest", "LlmResponse"]
