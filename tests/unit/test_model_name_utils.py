"""adk.utils.model_name_utils against google-adk 2.13's, name by name, on the same
model strings (paths, prefixes, versions PEP 440 reads or refuses, EAP names).

Runs on: test process only (pure).
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import pytest

from adk.utils import model_name_utils as ours

MODELS = [
    None, "", "gemini-2.5-flash", "gemini-2.5-pro", "gemini-1.5-pro", "gemini-1.0-pro-002",
    "gemini-3-pro-preview", "gemini-3.5-flash", "gemini-3.1-flash-live", "gemini-3.5-live-translate",
    "gemini-3.5-live-translate-preview", "gemini-3.0-live", "gemini-2.0-flash-live-001",
    "gemini-exp-1206", "gemini-pro", "gemini-", "gemini", "gemini-2", "gemini-10.1", "gemini-v2.5",
    "gemini-2.0rc1-x", "gemini-2.post1", "gemini-1!3.0", "gemini-2.0.dev3", "gemini-2.0+local",
    "gemini-2..0", "gemini-3a", "gemini-3_rc", "gemini-2.5.x", "gemini-0.9",
    "gemini-flash-early-exp", "gemini-flash-early-exp3", "gemini-early-exp",
    "gemini-flash-lite-early-exp12", "gemini-Flash-early-exp", "gemini-early-exp-2",
    "gemini-early-exp\n", "models/gemini-2.5-flash", "models/claude-3",
    "projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash",
    "projects/p/locations/l/publishers/anthropic/models/claude-3-opus",
    "projects/malformed/gemini-2.5-flash", "apigee/gemini-2.5-flash",
    "apigee/v1/gemini-1.5-pro", "apigee/gemini/v1/gemini-3-pro", "apigee/a/b/c/gemini-2.5-pro",
    "gemini/gemini-2.5-flash", "openrouter/google/gemini-2.5-pro:online",
    "openai/gpt-4o", "anthropic/claude-3-5-sonnet", "gpt-4o", "claude-3", "GEMINI-2.5-flash",
    " gemini-2.5-flash", "vertex_ai/gemini-1.5-flash", "gemini-1.5", "gemini-1.x",
]  # fmt: skip

PUBLIC = [
    "extract_model_name",
    "is_gemini_model",
    "is_gemini_1_model",
    "is_gemini_eap_or_2_or_above",
    "is_gemini_3_5_live_translate",
]
PRIVATE = [
    "_is_gemini_eap_model",
    "_supports_builtin_tools_with_function_calling",
    "_is_gemini_3_x_live",
]


def _outcome(function: Any, model: Any) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = function(model)
        except Exception as error:
            result = (type(error).__name__, str(error))
    return result, [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("name", PUBLIC + PRIVATE)
def test_each_function_answers_as_google_adks(name: str) -> None:
    from google.adk.utils import model_name_utils as reference

    differences = []
    for model in MODELS:
        if name == "extract_model_name" and model is None:
            continue  # (typed str; both fail on None)
        mine = _outcome(getattr(ours, name), model)
        theirs = _outcome(getattr(reference, name), model)
        if mine != theirs:
            differences.append(f"{model!r}: ours {mine}, google.adk {theirs}")
    assert not differences, "\n".join(differences)


def test_gemini_versions_are_read_as_pep_440_reads_them() -> None:
    """Versions built from PEP 440's parts (and near misses): the same majors."""
    from google.adk.utils import model_name_utils as reference

    parts = [
        ["", "v", "V", "1!"],
        ["2", "3.0", "10.2.1", "x", "2.", "04"],
        ["", "a1", ".rc", "_beta2", "pre", "c", "preview3", "alpha"],
        ["", ".post1", "-1", "rev", "r2", "_post"],
        ["", ".dev", "dev4", "_dev_5"],
        ["", "+local", "+a.b_c", "+", " "],
    ]
    differences = []
    for version in map("".join, itertools.product(*parts)):
        model = f"gemini-{version}-flash"
        for name in (
            "is_gemini_eap_or_2_or_above",
            "_supports_builtin_tools_with_function_calling",
        ):
            mine, theirs = (
                _outcome(getattr(ours, name), model),
                _outcome(getattr(reference, name), model),
            )
            if mine != theirs:
                differences.append(f"{name}({model!r}): ours {mine}, google.adk {theirs}")
    assert not differences, "\n".join(differences[:20])


@pytest.mark.parametrize("value", [None, "1", "true", "off", " YES "])
def test_the_model_id_check_switch_reads_the_environment_as_google_adk(
    value: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from google.adk.utils import model_name_utils as reference

    if value is None:
        monkeypatch.delenv("ADK_DISABLE_GEMINI_MODEL_ID_CHECK", raising=False)
    else:
        monkeypatch.setenv("ADK_DISABLE_GEMINI_MODEL_ID_CHECK", value)
    assert ours.is_gemini_model_id_check_disabled() == reference.is_gemini_model_id_check_disabled()


def test_every_public_name_is_there() -> None:
    from google.adk.utils import model_name_utils as reference

    public = {n for n in vars(reference) if not n.startswith("_") and callable(vars(reference)[n])}
    public -= {"deprecated", "annotations", "is_env_enabled", "Version", "InvalidVersion",
               "Optional", "TYPE_CHECKING"}  # fmt: skip
    assert public <= set(vars(ours)), public - set(vars(ours))
    assert set(ours.__all__) == public
