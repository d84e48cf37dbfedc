"""`python -m client artifacts`: what an operator sees of a session's artifacts.

Runs on: test process only (the CLI's main on a folder of artifacts; no Temporal).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from google.genai import types

from adk.artifacts import FileArtifactService
from adk.events.event import Event
from adk.events.event_actions import EventActions
from client.__main__ import main
from client._render import event_lines

SCOPE = {"app_name": "app", "user_id": "ada", "session_id": "s1"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    service = FileArtifactService(tmp_path / "artifacts")

    async def fill() -> None:
        for text in ("draft", "final"):
            await service.save_artifact(
                **SCOPE, filename="report.txt", artifact=types.Part.from_text(text=text)
            )
        png = types.Part.from_bytes(data=b"\x89PNG", mime_type="image/png")
        await service.save_artifact(**SCOPE, filename="chart.png", artifact=png)

    asyncio.run(fill())
    return tmp_path / "artifacts"


def cli(folder: Path, *args: str) -> int:
    """`artifacts s1 [NAME] [options]`: the name right after the session (argparse)."""
    name = [a for a in args[:1] if not a.startswith("--")]
    options = list(args[len(name) :])
    return main(
        ["artifacts", "s1", *name, "--app", "app", "--user", "ada", "--artifacts", str(folder)]
        + options
    )


def test_lists_each_artifact_and_its_versions(folder, capsys):
    assert cli(folder) == 0
    assert capsys.readouterr().out.splitlines() == [
        "chart.png\tversions 0\t(latest: image/png)",
        "report.txt\tversions 0, 1\t(latest: text)",
    ]


def test_prints_a_version_and_saves_bytes(folder, tmp_path, capsys):
    assert cli(folder, "report.txt") == 0
    assert capsys.readouterr().out == "final\n"
    assert cli(folder, "report.txt", "--version", "0") == 0
    assert capsys.readouterr().out == "draft\n"
    assert cli(folder, "chart.png") == 2  # bytes are not printed
    assert "4 bytes (image/png): write them with --out FILE" in capsys.readouterr().err
    assert cli(folder, "chart.png", "--out", str(tmp_path / "c.png")) == 0
    assert (tmp_path / "c.png").read_bytes() == b"\x89PNG"


def test_a_missing_artifact_or_service_is_a_clear_error(folder, capsys):
    assert cli(folder, "nope.txt", "--version", "3") == 2
    assert "no artifact 'nope.txt' version 3 in session s1" in capsys.readouterr().err
    assert main(["artifacts", "s1", "--app", "app", "--artifacts", "none"]) == 2
    assert "no artifact service" in capsys.readouterr().err
    assert main(["artifacts", "s1", "--app", "app", "--artifacts", "s3://b"]) == 2
    assert "give a folder, gs://BUCKET or none" in capsys.readouterr().err


def test_an_event_shows_the_versions_it_saved():
    event = Event(author="a", actions=EventActions(artifact_delta={"chart.png": 2}))
    assert event_lines(event) == ['    artifacts: {"chart.png": 2}']


def test_the_web_ui_transcript_names_the_versions_saved():
    from workflows._ui import event_lines as ui_lines

    event = Event(author="a", actions=EventActions(artifact_delta={"chart.png": 2, "n.txt": 0}))
    assert ui_lines(event) == ["**a** saved `chart.png` v2, `n.txt` v0"]
