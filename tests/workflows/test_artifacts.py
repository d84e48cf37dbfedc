"""Artifacts on Temporal: their bytes never enter workflow history (only names and
versions, in events' artifact_delta), they reach the model request all the same, and a
retried tool's save is a new version (what an operator sees).

Runs on: test process, against the session's local Temporal (in-process worker).
"""

from __future__ import annotations

import base64
from datetime import timedelta
from pathlib import Path
from typing import Any

from google.genai import types

from adk import ActivityOptions, Agent
from adk.artifacts import FileArtifactService
from adk.testing import MockModel
from adk.tools import FunctionTool, ToolContext, load_artifacts

from .helpers import call, runner_for, turn
from .test_secrets_in_history import _histories

CANARY_TEXT = "canary-artifact-text-5e1b77"
CANARY_BYTES = b"\x89PNG\r\n\x1a\n" + b"canary-artifact-bytes-93c0f1" * 4000  # ~110 KB


async def make_chart(tool_context: ToolContext) -> dict:
    """Draws the chart and writes the notes."""
    chart = await tool_context.save_artifact(
        "chart.png", types.Part.from_bytes(data=CANARY_BYTES, mime_type="image/png")
    )
    notes = await tool_context.save_artifact("notes.txt", types.Part.from_text(text=CANARY_TEXT))
    return {"chart": chart, "notes": notes}


async def test_artifact_bytes_never_enter_history(temporal_env, tmp_path: Path) -> None:
    model = MockModel.create(
        [
            call("make_chart"),
            call("load_artifacts", artifact_names=["chart.png", "notes.txt"]),
            "A rising line.",
        ]
    )
    agent = Agent(
        name="painter",
        model=model,
        instruction="Notes so far: {artifact.notes.txt?}",
        tools=[make_chart, load_artifacts],
    )
    service = FileArtifactService(tmp_path / "artifacts")
    async with runner_for(temporal_env, agent, artifact_service=service) as runner:
        events = await turn(runner, "draw it", session="artifacts-history")
        temporal = await runner._ensure_started()
        workflow_id = "adk:test_app:u1:artifacts-history"
        histories = await _histories(temporal, workflow_id)
    # the model saw them: the chart inline and the notes as text, after its call
    last = model.requests[-1]
    seen = [p for c in last.contents for p in c.parts or []]
    assert any(p.inline_data and p.inline_data.data == CANARY_BYTES for p in seen)
    assert any(p.text == CANARY_TEXT for p in seen)
    assert CANARY_TEXT in str(last.config.system_instruction)  # {artifact.notes.txt}
    # the events name them by version only
    deltas = [e.actions.artifact_delta for e in events if e.actions.artifact_delta]
    assert deltas == [{"chart.png": 0, "notes.txt": 0}]
    # stored once, in the artifact folder
    stored = await service.load_artifact(
        app_name="test_app", user_id="u1", session_id="artifacts-history", filename="chart.png"
    )
    assert stored is not None and stored.inline_data is not None
    assert stored.inline_data.data == CANARY_BYTES
    [history] = histories.values()
    assert "artifact_delta" in history and "chart.png" in history  # searched, decoded
    for needle in (
        CANARY_TEXT,
        "canary-artifact-bytes",
        base64.b64encode(CANARY_BYTES[:3000]).decode()[:40],
    ):
        assert needle not in history, f"{needle[:30]} in workflow history"
    assert len(history) < len(CANARY_BYTES) / 2  # (history text, decoded payloads and all)


async def test_a_retried_save_is_a_new_version(temporal_env, tmp_path: Path) -> None:
    """Temporal runs a tool at least once; an artifact store only appends. The first
    attempt's version stays (listed, loadable by number); the event names the version
    of the attempt that counted, which is also the latest."""
    attempts: list[int] = []

    async def export(tool_context: ToolContext) -> dict:
        """Exports the report."""
        attempts.append(len(attempts))
        text = f"report (attempt {len(attempts)})"
        version = await tool_context.save_artifact("report.txt", types.Part.from_text(text=text))
        if len(attempts) == 1:
            raise ConnectionError("the upload broke after the save")
        return {"version": version}

    tool = FunctionTool(export)
    tool.activity_options = ActivityOptions(
        maximum_attempts=2, initial_interval=timedelta(milliseconds=10)
    )
    agent = Agent(
        name="exporter", model=MockModel.create([call("export"), "Exported."]), tools=[tool]
    )
    service = FileArtifactService(tmp_path / "artifacts")
    async with runner_for(temporal_env, agent, artifact_service=service) as runner:
        events = await turn(runner, "export", session="artifacts-retry")
    assert attempts == [0, 1]
    responses = [e for e in events if e.get_function_responses()]
    assert [e.actions.artifact_delta for e in responses] == [{"report.txt": 1}]
    assert responses[0].get_function_responses()[0].response == {"version": 1}
    scope: dict[str, Any] = {
        "app_name": "test_app",
        "user_id": "u1",
        "session_id": "artifacts-retry",
        "filename": "report.txt",
    }
    assert await service.list_versions(**scope) == [0, 1]
    latest = await service.load_artifact(**scope)
    assert latest is not None and latest.text == "report (attempt 2)"


async def test_the_reports_example_writes_and_reads_its_artifact(
    temporal_env, tmp_path, monkeypatch
):
    for variable in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    from examples.reports.agent import OfflineReportModel, root_agent

    assert isinstance(root_agent.model, OfflineReportModel)  # (offline: no key above)
    service = FileArtifactService(tmp_path / "artifacts")
    async with runner_for(temporal_env, root_agent, artifact_service=service) as runner:
        events = await turn(runner, "Write a report on solar panels", session="reports")
    final = events[-1].content
    assert final is not None and final.parts is not None
    assert final.parts[0].text == (
        "The report is saved as report.md. It says:"
        " Three findings on solar panels: cheap, quiet, and growing."
    )
    assert [e.actions.artifact_delta for e in events if e.actions.artifact_delta] == [
        {"report.md": 0}
    ]
    saved = await service.load_artifact(
        app_name="test_app", user_id="u1", session_id="reports", filename="report.md"
    )
    assert saved is not None and saved.text is not None and saved.text.startswith("# Solar Panels")
