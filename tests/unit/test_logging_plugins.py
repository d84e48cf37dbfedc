"""LoggingPlugin's and DebugLoggingPlugin's construction rules (as google-adk 2.13's) and
DebugLoggingPlugin's durable per-invocation buffer: hooks of one invocation run in
several activities, possibly several processes, and a retried step counts once.

Runs on: test process only. Their output in real runs is compared with google-adk 2.13
in tests/differential/cases/plugin_logging.py and plugin_debug_logging.py.
"""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from google.genai import types

import adk.plugins.debug_logging_plugin as debug_module
from adk.plugins import DebugLoggingPlugin, LoggingPlugin, ToolResultClassification


async def _async_classifier(*, tool: Any, tool_args: Any, tool_context: Any, result: Any) -> None:
    return None


def _no_keywords(result: Any) -> None:
    return None


@pytest.mark.parametrize(
    "classifier",
    ["not callable", _async_classifier, _no_keywords],
    ids=["not callable", "async", "wrong signature"],
)
@pytest.mark.parametrize("plugin", ["LoggingPlugin", "DebugLoggingPlugin"])
def test_a_bad_classifier_is_refused_with_google_adks_message(plugin: str, classifier: Any) -> None:
    import google.adk.plugins as reference

    with pytest.raises(ValueError) as theirs:
        getattr(reference, plugin)(tool_result_classifier=classifier)
    with pytest.raises(ValueError) as ours:
        {"LoggingPlugin": LoggingPlugin, "DebugLoggingPlugin": DebugLoggingPlugin}[plugin](
            tool_result_classifier=classifier
        )
    assert str(ours.value) == str(theirs.value)


def test_a_classification_checks_its_status() -> None:
    with pytest.raises(ValueError, match="status must be 'OK' or 'ERROR'"):
        ToolResultClassification(status="MAYBE")  # type: ignore[arg-type]


# ── DebugLoggingPlugin's buffer ──


def _run(invocation_id: str = "e-1") -> Any:
    session = SimpleNamespace(id="s1", app_name="app", state={"k": 1}, events=[1, 2])
    return SimpleNamespace(
        invocation_id=invocation_id,
        session=session,
        user_id="u1",
        agent=SimpleNamespace(name="root"),
        branch=None,
    )


def _callback(invocation_id: str = "e-1") -> Any:
    return SimpleNamespace(
        invocation_id=invocation_id,
        agent_name="root",
        _invocation_context=SimpleNamespace(branch=None),
    )


def _request(text: str) -> Any:
    return SimpleNamespace(
        model="m",
        contents=[types.Content(role="user", parts=[types.Part(text=text)])],
        tools_dict={},
        config=None,
    )


def _in_step(monkeypatch: pytest.MonkeyPatch, step: str | None, attempt: int = 1) -> None:
    monkeypatch.setattr(debug_module, "_step", lambda: (step, attempt))


def _documents(path: Path) -> list[Any]:
    return list(yaml.safe_load_all(path.read_text())) if path.exists() else []


async def test_hooks_in_other_processes_and_a_retried_step_make_one_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / "debug.yaml"
    # one plugin object per worker process, the same output path (shared storage)
    first, second = (
        DebugLoggingPlugin(output_path=str(output)),
        DebugLoggingPlugin(output_path=str(output)),
    )
    _in_step(monkeypatch, "wf/run/1")
    await first.before_run_callback(invocation_context=_run())
    _in_step(monkeypatch, "wf/run/2", attempt=1)  # a model step that fails after its hook
    await second.before_model_callback(callback_context=_callback(), llm_request=_request("a"))
    _in_step(monkeypatch, "wf/run/2", attempt=2)  # its retry, on the first worker
    await first.before_model_callback(callback_context=_callback(), llm_request=_request("b"))
    _in_step(monkeypatch, "wf/run/3")
    await second.after_run_callback(invocation_context=_run())

    [document] = _documents(output)
    kinds = [e["entry_type"] for e in document["entries"]]
    assert kinds == ["invocation_start", "llm_request", "session_state_snapshot", "invocation_end"]
    request = document["entries"][1]["data"]
    assert request["contents"][0]["parts"] == [{"text": "b"}]  # the retry's, once
    assert document["entries"][2]["data"] == {"state": {"k": 1}, "event_count": 2}
    assert (document["invocation_id"], document["session_id"]) == ("e-1", "s1")
    assert oct(output.stat().st_mode & 0o777) == "0o600"
    assert not list((tmp_path / "debug.yaml.pending").iterdir())  # the buffer is gone


async def test_an_entry_before_the_run_starts_is_skipped_as_in_google_adk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    output = tmp_path / "debug.yaml"
    plugin = DebugLoggingPlugin(output_path=str(output))
    _in_step(monkeypatch, "wf/run/1", attempt=1)
    await plugin.before_run_callback(invocation_context=_run())
    _in_step(monkeypatch, "wf/run/1", attempt=2)  # the begin step again: its message first
    with caplog.at_level(logging.WARNING):
        await plugin.on_user_message_callback(
            invocation_context=_run(), user_message=types.Content(role="user", parts=[])
        )
        await plugin.before_run_callback(invocation_context=_run())
        await plugin.after_run_callback(invocation_context=_run())
    [document] = _documents(output)
    assert [e["entry_type"] for e in document["entries"]][:1] == ["invocation_start"]
    assert "user_message" not in {e["entry_type"] for e in document["entries"]}

    caplog.clear()
    with caplog.at_level(logging.WARNING):
        await plugin.on_user_message_callback(
            invocation_context=_run("e-2"), user_message=types.Content(role="user", parts=[])
        )
    assert "No debug state for invocation e-2, skipping entry" in caplog.text


async def test_a_failed_invocation_writes_nothing_and_leaves_no_buffer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / "debug.yaml"
    plugin = DebugLoggingPlugin(output_path=str(output))
    _in_step(monkeypatch, None)
    await plugin.before_run_callback(invocation_context=_run())
    await plugin.on_run_error_callback(invocation_context=_run(), error=RuntimeError("x"))
    await plugin.after_run_callback(invocation_context=_run())  # nothing left to write
    assert _documents(output) == []
    assert not list((tmp_path / "debug.yaml.pending").iterdir())
