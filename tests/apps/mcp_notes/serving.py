"""Starting the test MCP server (server.py) on a loopback port, and stopping it.

Runs on: test process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

SERVER = Path(__file__).with_name("server.py")


def start_http(mode: str, port: int, env: dict[str, str], tmp: Path) -> subprocess.Popen[bytes]:
    """The notes server on a loopback port (`http`: Streamable HTTP, `sse`), accepting."""
    with open(tmp / f"{mode}_server.log", "ab") as out:
        proc = subprocess.Popen(
            [sys.executable, str(SERVER), mode, str(port)],
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 20
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return proc
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the MCP server did not start: {(tmp / f'{mode}_server.log').read_text()}")
        time.sleep(0.05)


def end(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
