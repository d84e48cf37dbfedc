"""adk.utils.output_schema_utils against google-adk 2.13's: the same answer and
warnings for model names and models, on the Gemini API and on Vertex AI.

Runs on: test process only (pure).
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

NAMES = [
    "gemini-2.5-flash", "models/gemini-2.5-pro", "gemini/gemini-3-pro",
    "projects/p/locations/l/publishers/google/models/gemini-2.5-flash", "gpt-4o", "claude-3", "",
]  # fmt: skip


def _models(package: str) -> list[Any]:
    """A side's models: Gemini, a BaseLlm that declares nothing (2.13's name-based
    fallback, with its FutureWarning) and one that declares output schema with tools."""
    base = __import__(f"{package}.models.base_llm", fromlist=["BaseLlm"]).BaseLlm
    gemini = __import__(f"{package}.models.google_llm", fromlist=["Gemini"]).Gemini
    capabilities = __import__(f"{package}.models._capabilities", fromlist=["x"]).LlmCapabilities

    class Undeclared(base):  # type: ignore[misc,valid-type]
        async def generate_content_async(self, *args: Any, **kwargs: Any) -> Any:
            yield None  # (never called)

    class Declared(Undeclared):
        @property
        def capabilities(self) -> Any:
            return capabilities(output_schema_and_tools=True)

    return [
        gemini(model="gemini-2.5-flash"),
        gemini(model="gemini-2.5-flash-lite"),
        Undeclared(model="gemini-2.5-flash"),
        Undeclared(model="my-model"),
        Declared(model="my-model"),
    ]


def _outcomes(package: str) -> list[Any]:
    function = __import__(
        f"{package}.utils.output_schema_utils", fromlist=["x"]
    ).can_use_output_schema_with_tools
    outcomes = []
    for model in [*NAMES, *_models(package)]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = function(model)
        outcomes.append((result, sorted((w.category.__name__, str(w.message)) for w in caught)))
    return outcomes


@pytest.mark.parametrize("enterprise", [None, "true", "false"])
def test_the_answers_and_warnings_are_google_adks(
    enterprise: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)
    if enterprise is None:
        monkeypatch.delenv("GOOGLE_GENAI_USE_ENTERPRISE", raising=False)
    else:
        monkeypatch.setenv("GOOGLE_GENAI_USE_ENTERPRISE", enterprise)
    ours, reference = _outcomes("adk"), _outcomes("google.adk")
    assert ours == reference
    assert any(result for result, _ in ours[: len(NAMES)]) == (enterprise == "true")
