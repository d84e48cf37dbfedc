"""The README's "Running it" commands, run as written against a dev server and a worker.

The ```bash blocks of that section are read from README.md, so the test and the
README cannot drift apart. `python` is this interpreter; a `python -m worker`
line is the long-running worker (the README runs it in its own terminal), so it
starts in the background and every other line must exit 0 in order.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def readme_commands() -> list[list[str]]:
    text = (REPO / "README.md").read_text()
    section = text.split("\n## Running it\n", 1)[1]
    section = re.split(r"\n#{2,3} ", section, maxsplit=1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, flags=re.S)
    return [
        shlex.split(line, comments=True)
        for block in blocks
        for line in block.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_the_section_shows_a_worker_and_client_commands():
    commands = readme_commands()
    assert commands[0][:3] == ["python", "-m", "worker"]
    assert [c[:3] for c in commands[1:]] == [["python", "-m", "client"]] * (len(commands) - 1)


def cli_env(address: str, tmp: Path, task_queue: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        # the weather example uses its offline model, as on a machine with no key
        if key not in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI")
        and key not in ("WEATHER_MODEL", "TEMPORAL_UI_URL")
    }
    env.update(
        TEMPORAL_ADDRESS=address,
        DURABLE_ADK_TASK_QUEUE=task_queue,
        DURABLE_ADK_DATA_DIR=str(tmp),
        DURABLE_ADK_LOG_FORMAT="json",
        PYTHONUNBUFFERED="1",
    )
    return env


async def test_the_readme_commands_work_as_written(temporal_env, tmp_path):
    address = temporal_env.client.service_client.config.target_host
    env = cli_env(address, tmp_path, f"readme-{uuid.uuid4().hex[:8]}")
    worker: subprocess.Popen[bytes] | None = None
    outputs = []
    try:
        for command in readme_commands():
            argv = [sys.executable if command[0] == "python" else command[0], *command[1:]]
            if command[:3] == ["python", "-m", "worker"]:
                log = tmp_path / "worker.log"
                with open(log, "wb") as out:
                    worker = subprocess.Popen(
                        argv, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT
                    )
                deadline = time.monotonic() + 60
                while "worker started" not in log.read_text():
                    assert worker.poll() is None, log.read_text()
                    assert time.monotonic() < deadline, log.read_text()
                    await asyncio.sleep(0.1)
                continue
            done = await asyncio.to_thread(
                subprocess.run, argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=90
            )
            assert done.returncode == 0, f"{shlex.join(command)}\n{done.stdout}\n{done.stderr}"
            outputs.append(done.stdout)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
    paris, tokyo, sessions, session = outputs
    assert "final answer: It is partly cloudy and 18°C in Paris." in paris
    port = int(address.rsplit(":", 1)[1])
    assert f"Web UI: http://{address.rsplit(':', 1)[0]}:{port + 1000}/namespaces/default/" in paris
    assert "final answer: It is sunny and 22°C in Tokyo." in tokyo
    assert "\tada\ts1\t" in sessions
    assert '"user:name": "Ada"' in session and '"last_city": "Tokyo"' in session


@pytest.mark.parametrize(
    "address, expected",
    [
        ("localhost:7233", "http://localhost:8233"),
        ("127.0.0.1:7411", "http://127.0.0.1:8411"),
        ("ns.acct.tmprl.cloud:7233", "https://cloud.temporal.io"),
    ],
)
def test_web_ui_links_follow_the_address(address, expected, monkeypatch):
    from client._cli import ui_base

    monkeypatch.delenv("TEMPORAL_UI_URL", raising=False)
    assert ui_base(address) == expected
    monkeypatch.setenv("TEMPORAL_UI_URL", "http://ui.example:9000")
    assert ui_base(address) == "http://ui.example:9000"
