"""`python -m worker --health-port`: a real worker's `/readyz` and `/livez`, as a
Kubernetes probe or a compose health check sees them.

Runs on: test process, spawning `python -m worker` against the session's dev server.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .test_durability import stop, wait_until

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _probe(port: int, path: str) -> tuple[int, dict[str, object]] | None:
    """What a probe gets (status, JSON body), or None when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=3) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    except OSError:
        return None


def _worker(address: str, home: Path, port: int, name: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DURABLE_ADK_")}
    env.update(TEMPORAL_ADDRESS=address, DURABLE_ADK_DATA_DIR=str(home), PYTHONUNBUFFERED="1")
    log = open(home / f"{name}.log", "ab")  # noqa: SIM115 (closed with the process)
    try:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "worker",
                str(REPO / "examples" / "weather"),
                "--health-port",
                str(port),
                "--health-host",
                "127.0.0.1",
                "--artifacts",
                "none",
                "--memory",
                "none",
                "--log-format",
                "json",
            ],
            cwd=home,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    finally:
        log.close()


async def test_a_worker_is_ready_once_it_polls_and_exits_on_sigterm(temporal_env, tmp_path):
    address = temporal_env.client.service_client.config.target_host
    port = _free_port()
    proc = _worker(address, tmp_path, port, "worker")
    try:
        await wait_until(
            lambda: (_probe(port, "/readyz") or (0,))[0] == 200, 60, "/readyz 200", proc, tmp_path
        )
        status, body = _probe(port, "/readyz") or (0, {})
        assert body["status"] == "polling"
        assert "durable-adk.weather" in body["task_queues"]  # type: ignore[operator]
        assert _probe(port, "/livez") == (200, {"status": "alive"})

        # a second worker on the same port says so and exits, before polling anything
        second = _worker(address, tmp_path, port, "second")
        assert second.wait(timeout=60) == 2
        text = (tmp_path / "second.log").read_text()
        assert "cannot serve the health endpoint" in text, text
        assert _probe(port, "/readyz") == (200, body)  # the first one is unaffected

        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
        assert code == 0, (code, (tmp_path / "worker.log").read_text()[-4000:])
        assert time.monotonic() - started < 30
        assert _probe(port, "/livez") is None  # the endpoint went with the process
    finally:
        stop(proc)
