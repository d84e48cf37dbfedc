"""LLMRegistry: model name -> BaseLlm class, by regular expression.

Runs on: activity side (the worker resolves model names when it runs a model step).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .base_llm import BaseLlm

_registry: dict[str, type[BaseLlm]] = {}
_defaults_registered = False


def _register_defaults() -> None:
    """Register Gemini the first time a name is resolved.

    Not at import: `adk.models` is imported on the workflow side (Event is an
    LlmResponse), and Gemini brings the google-genai client and its I/O. The
    defaults go first, so a class the user registered for the same pattern wins.
    """
    global _defaults_registered, _registry
    if _defaults_registered:
        return
    from .google_llm import Gemini

    _defaults_registered = True
    _registry = {**{p: Gemini for p in Gemini.supported_models()}, **_registry}


class LLMRegistry:
    """Registry of model classes, keyed by the regexes of `supported_models()`."""

    @staticmethod
    def register(llm_cls: type[BaseLlm]) -> None:
        """Register a model class for every pattern it supports (later wins)."""
        for pattern in llm_cls.supported_models():
            _registry[pattern] = llm_cls
        LLMRegistry.resolve.cache_clear()

    @staticmethod
    def new_llm(model: str) -> BaseLlm:
        """An instance of the class registered for `model`."""
        return LLMRegistry.resolve(model)(model=model)

    @staticmethod
    @lru_cache
    def resolve(model: str) -> type[BaseLlm]:
        """The class registered for `model`; ValueError when none matches."""
        _register_defaults()
        for pattern, llm_cls in reversed(list(_registry.items())):
            if re.compile(pattern).fullmatch(model):
                return llm_cls
        raise ValueError(f"Model {model} not found.")
