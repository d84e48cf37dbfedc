"""LLMRegistry resolves model names as google-adk 2.13 does, and names the classes it lacks.

Runs on: test process only (google-adk is the test-only reference).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from adk.models import BaseLlm, Gemini, LLMRegistry
from adk.models import registry as our_registry
from adk.models.registry import UnimplementedModelError

google_models = pytest.importorskip("google.adk.models")


@pytest.fixture
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    LLMRegistry.resolve("gemini-2.5-flash")  # the defaults are in
    monkeypatch.setattr(our_registry, "_registry", dict(our_registry._registry))
    LLMRegistry.resolve.cache_clear()
    yield
    LLMRegistry.resolve.cache_clear()


def test_gemini_takes_google_adks_names() -> None:
    from google.adk.models.google_llm import Gemini as RefGemini

    assert Gemini.supported_models() == RefGemini.supported_models()
    assert LLMRegistry.resolve("gemma-4-31b-it") is Gemini  # Gemma 4 is served as Gemini
    assert google_models.LLMRegistry.resolve("gemma-4-31b-it") is RefGemini


def test_the_classes_we_lack_are_google_adks_providers_in_its_order() -> None:
    reference = {
        name: patterns
        for name, (patterns, _module) in google_models._LAZY_PROVIDERS.items()
        if name != "Gemini"
    }
    ours = {name: patterns for name, (_module, patterns) in our_registry._UNPORTED.items()}
    assert list(ours.items()) == list(reference.items())


@pytest.mark.parametrize(
    ("model", "needs", "module"),
    [
        ("claude-sonnet-4-5", "Claude", "google.adk.models.anthropic_llm"),
        ("gemma-3-27b-it", "Gemma", "google.adk.models.gemma_llm"),
        ("apigee/gemini-2.5-flash", "ApigeeLlm", "google.adk.models.apigee_llm"),
        ("ollama/gemma3:12b", "Gemma3Ollama", "google.adk.models.gemma_llm"),
        ("ollama/llama3.2", "LiteLlm", "google.adk.models.lite_llm"),
        ("openai/gpt-4o", "LiteLlm", "google.adk.models.lite_llm"),
        ("gpt-4o", "OpenAILlm", "google.adk.integrations.openai"),
        ("meta.llama-3-70b", "OCIGenAILlm", "google.adk.integrations.oci"),
    ],
)
def test_a_name_google_adk_resolves_to_a_class_we_lack_says_so(
    model: str, needs: str, module: str
) -> None:
    with pytest.raises(UnimplementedModelError) as raised:
        LLMRegistry.new_llm(model)
    assert str(raised.value) == (
        f"Model {model} needs {needs} ({module} in google-adk 2.13.0), which durable-adk does"
        " not implement yet."
    )
    # NotImplementedError as durable-adk's gaps are, ValueError as 2.13's unresolved names
    assert isinstance(raised.value, NotImplementedError)
    assert isinstance(raised.value, ValueError)


def test_an_unknown_name_is_not_found_as_before() -> None:
    with pytest.raises(ValueError, match=r"^Model no-such-model not found\.$") as raised:
        LLMRegistry.resolve("no-such-model")
    assert not isinstance(raised.value, NotImplementedError)


@pytest.mark.usefixtures("clean_registry")
def test_a_registered_class_wins_over_the_missing_one() -> None:
    class MyClaude(BaseLlm):
        @classmethod
        def supported_models(cls) -> list[str]:
            return [r"claude-.*"]

    LLMRegistry.register(MyClaude)
    assert LLMRegistry.resolve("claude-sonnet-4-5") is MyClaude


@pytest.mark.parametrize("model", ["gemini:gemini-2.5-pro", "Gemini:gemini-2.5-pro"])
def test_a_class_prefix_picks_the_class_and_gives_it_the_bare_name(model: str) -> None:
    reference = google_models.LLMRegistry.new_llm(model)
    ours = LLMRegistry.new_llm(model)
    assert type(ours).__name__ == type(reference).__name__ == "Gemini"
    assert ours.model == reference.model == "gemini-2.5-pro"


def test_a_prefix_naming_a_class_we_lack_says_so() -> None:
    with pytest.raises(UnimplementedModelError, match=r"^Model openai:gpt-4o needs OpenAILlm "):
        LLMRegistry.new_llm("openai:gpt-4o")


def test_a_prefix_naming_no_class_is_part_of_the_name() -> None:
    # as in 2.13: no class is called "ollama/gemma3", so the whole name is matched
    with pytest.raises(UnimplementedModelError, match="needs Gemma3Ollama"):
        LLMRegistry.new_llm("ollama/gemma3:12b")


@pytest.mark.usefixtures("clean_registry")
def test_a_prefix_picks_a_registered_class_by_name() -> None:
    class MyModelLlm(BaseLlm):
        @classmethod
        def supported_models(cls) -> list[str]:
            return [r"mine-.*"]

    LLMRegistry.register(MyModelLlm)
    for prefix in ("mymodel", "MyModel", "mymodelllm"):
        llm = LLMRegistry.new_llm(f"{prefix}:anything")
        assert (type(llm), llm.model) == (MyModelLlm, "anything")
