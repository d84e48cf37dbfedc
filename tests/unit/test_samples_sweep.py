"""The samples sweep (bench/samples_sweep): how it sorts results, and one tiny sample end to end.

Runs on: test process only (the end-to-end case starts two child processes,
one importing the sample on google-adk 2.13, one on ours; no network).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from bench.samples_sweep import __main__ as sweep
from bench.samples_sweep._classify import Outcome, classify, missing_feature

OK: dict[str, Any] = {"status": "ok", "agent_class": "LlmAgent"}


def failed(kind: str, message: str, *mro: str, name: str | None = None) -> dict[str, Any]:
    return {
        "status": "error",
        "type": kind,
        "mro": [kind, *mro, "Exception", "BaseException", "object"],
        "module_name": name,
        "message": message,
    }


UNPORTED = failed(
    "UnportedModuleError",
    "adk.models.lite_llm (google.adk.models.lite_llm in google-adk 2.13.0) is not"
    " implemented by durable-adk yet; see ...",
    "NotImplementedError",
    "ImportError",
    name="adk.models.lite_llm",
)


@pytest.mark.parametrize(
    ("ref", "ours", "kind", "detail"),
    [
        (OK, OK, Outcome.OK, "LlmAgent"),
        # what 2.13 lacks in this venv, we lack too: not our gap, whatever ours raised
        (
            failed("ModuleNotFoundError", "No module named 'anthropic'", "ImportError",
                   name="anthropic"),
            UNPORTED, Outcome.THIRD_PARTY, "anthropic",
        ),
        (
            failed("ImportError", "cannot import name 'bigquery' from 'google.cloud'",
                   name="google.cloud"),
            UNPORTED, Outcome.THIRD_PARTY, "google.cloud",
        ),
        (
            failed("ValueError", "GITHUB_TOKEN environment variable not set"),
            failed("ValueError", "GITHUB_TOKEN environment variable not set"),
            Outcome.STALE, "ValueError: GITHUB_TOKEN environment variable not set",
        ),
        (OK, UNPORTED, Outcome.NOT_IMPLEMENTED, "adk.models.lite_llm"),
        (
            OK,
            failed("NotImplementedError", "LlmAgent(planner=...) is not supported yet: x"),
            Outcome.NOT_IMPLEMENTED, "LlmAgent(planner=...)",
        ),
        (
            OK,
            failed("ImportError", "cannot import name 'X' from 'adk.tools'", name="adk.tools"),
            Outcome.BUG, "ImportError: cannot import name 'X' from 'adk.tools'",
        ),
    ],
)  # fmt: skip
def test_classification(ref: dict[str, Any], ours: dict[str, Any], kind: str, detail: str) -> None:
    result = classify(ref, ours)
    assert (result.kind, result.detail) == (kind, detail)


def test_a_model_only_2_13_resolves_is_its_own_class() -> None:
    error = failed("UnimplementedModelError", "Model apigee/x needs ApigeeLlm (...)")
    ref = {**OK, "models": {"a": {"class": "ApigeeLlm"}}}
    ours = {**OK, "models": {"a": {"error": error}}}
    result = classify(ref, ours)
    assert result.kind == Outcome.MODEL
    assert result.detail.startswith("ApigeeLlm: UnimplementedModelError")


def test_an_app_a_worker_refuses_is_its_own_class() -> None:
    refused = failed("NotImplementedError", "AgentTool.run_async is not supported yet: x")
    result = classify(OK, {**OK, "worker": refused})
    assert (result.kind, result.detail) == (
        Outcome.WORKER,
        f"NotImplementedError: {refused['message']}",
    )
    assert missing_feature({**OK, "worker": refused}) == "AgentTool.run_async"


def test_missing_feature_names_what_ours_lacks() -> None:
    assert missing_feature(UNPORTED) == "adk.models.lite_llm"
    assert missing_feature(OK) is None


SAMPLE = """
from google.adk.agents import LlmAgent
from google.adk.tools.mcp_tool.mcp_session_manager import StreamableHTTPServerParams


def shout(text: str) -> str:
    \"\"\"Shout the text.\"\"\"
    return text.upper()


assert StreamableHTTPServerParams
root_agent = LlmAgent(name="echo", model="gemini-2.5-flash", instruction="Echo.", tools=[shout])
"""


def test_a_sample_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sample = tmp_path / "samples" / "echo"
    sample.mkdir(parents=True)
    (sample / "__init__.py").write_text("from . import agent\n")
    (sample / "agent.py").write_text(textwrap.dedent(SAMPLE))
    (tmp_path / "samples" / "helpers").mkdir()  # no agent.py: not a sample
    out = tmp_path / "rows.json"
    sweep.main([str(tmp_path / "samples"), "--json", str(out)])
    assert "ok                     echo: LlmAgent [request: same]" in capsys.readouterr().out
