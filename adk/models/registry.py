"""LLMRegistry: model name -> BaseLlm class, by regular expression.

Runs on: activity side (the worker resolves model names when it runs a model step).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .._reference_surface import VERSION
from .base_llm import BaseLlm

_registry: dict[str, type[BaseLlm]] = {}
_defaults_registered = False

# The model classes google-adk 2.13 resolves names to and durable-adk lacks, in its
# order (the first match wins): class -> (module under google.adk, name patterns).
_UNPORTED: dict[str, tuple[str, list[str]]] = {
    "Gemma": ("models.gemma_llm", [r"gemma-.*"]),
    "ApigeeLlm": ("models.apigee_llm", [r"apigee\/.*"]),
    "Claude": ("models.anthropic_llm", [r"claude-.*"]),
    "Gemma3Ollama": ("models.gemma_llm", [r"ollama/gemma3.*"]),
    "OpenAILlm": ("integrations.openai", [r"gpt-.*", r"o\d+-.*"]),
    "LiteLlm": (
        "models.lite_llm",
        [
            r"openai/.*",
            r"azure/.*",
            r"azure_ai/.*",
            r"groq/.*",
            r"anthropic/.*",
            r"bedrock/.*",
            r"ollama/(?!gemma3).*",
            r"ollama_chat/.*",
            r"together_ai/.*",
            r"vertex_ai/.*",
            r"mistral/.*",
            r"deepseek/.*",
            r"fireworks_ai/.*",
            r"cohere/.*",
            r"databricks/.*",
            r"ai21/.*",
        ],
    ),
    "OCIGenAILlm": (
        "integrations.oci",
        [
            r"meta\.llama-.*",
            r"google\.gemini-.*",
            r"google\.gemma-.*",
            r"xai\.grok-.*",
            r"mistralai\.mistral-.*",
            r"mistralai\.mixtral-.*",
            r"nvidia\..*",
        ],
    ),
}


class UnimplementedModelError(NotImplementedError, ValueError):
    """A model name google-adk 2.13 resolves to a class durable-adk does not implement:
    NotImplementedError naming that class, and the ValueError 2.13 raises for a name
    it cannot resolve (so `except ValueError` still catches it)."""


def _unported_error(model: str, name: str) -> UnimplementedModelError:
    module = _UNPORTED[name][0]
    return UnimplementedModelError(
        f"Model {model} needs {name} (google.adk.{module} in google-adk {VERSION}),"
        " which durable-adk does not implement yet."
    )


def _unported(model: str) -> UnimplementedModelError | None:
    for name, (_module, patterns) in _UNPORTED.items():
        if any(re.compile(pattern).fullmatch(model) for pattern in patterns):
            return _unported_error(model, name)
    return None


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
        """An instance of the class registered for `model`. A `Class:name` model
        (`gemini:gemini-2.5-flash`) picks the class by name and gives it `name`."""
        prefix, name = _parse_model(model)
        llm_cls = LLMRegistry.resolve(model)
        if prefix and _match_prefix(prefix, llm_cls.__name__):
            return llm_cls(model=name)
        return llm_cls(model=model)

    @staticmethod
    @lru_cache
    def resolve(model: str) -> type[BaseLlm]:
        """The class registered for `model` (or named by its `Class:` prefix);
        ValueError when none matches (UnimplementedModelError when google-adk 2.13
        has a class for it)."""
        _register_defaults()
        prefix, _ = _parse_model(model)
        if prefix:
            for llm_cls in reversed(list(_registry.values())):
                if _match_prefix(prefix, llm_cls.__name__):
                    return llm_cls
            for name in _UNPORTED:
                if _match_prefix(prefix, name):
                    raise _unported_error(model, name)
        for pattern, llm_cls in reversed(list(_registry.items())):
            if re.compile(pattern).fullmatch(model):
                return llm_cls
        raise _unported(model) or ValueError(f"Model {model} not found.")


def _parse_model(model: str) -> tuple[str | None, str]:
    """`openai:gpt-4` -> ("openai", "gpt-4"); `gpt-4` -> (None, "gpt-4")."""
    if ":" in model:
        prefix, name = model.split(":", 1)
        return prefix, name
    return None, model


def _match_prefix(prefix: str, class_name: str) -> bool:
    """A prefix names a class case-blind, with or without its `Llm` ending."""
    short = class_name.lower()
    if short.endswith("llm"):
        short = short[:-3]
    return prefix.lower() in (short, class_name.lower())
