"""The CLI's failures: one line each with its documented exit code, the traceback on --debug.

Each case runs `python -m client` as a user would, against the session's dev server
(no worker polls the task queues used here).
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from temporalio.service import RPCError, RPCStatusCode

from client._exits import EXIT_NO_WORKER, EXIT_UNREACHABLE, EXIT_USAGE, explain

from .test_readme_commands import REPO, cli_env


def cli(address: str, tmp: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = cli_env(address, tmp, f"cli-{uuid.uuid4().hex[:8]}")
    return subprocess.run(
        [sys.executable, "-m", "client", *argv],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [
        line
        for line in done.stderr.splitlines()
        if " WARN " not in line and not line.startswith("no worker polls")  # --wait's notice
    ]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


def test_run_says_within_seconds_that_no_worker_serves_the_app(temporal_env, tmp_path):
    address = temporal_env.client.service_client.config.target_host
    started = time.monotonic()
    done = cli(address, tmp_path, "run", "--app", "weather", "Paris?")
    assert done.returncode == EXIT_NO_WORKER, done.stderr
    assert time.monotonic() - started < 20
    assert "no worker polls task queue" in one_line(done)
    assert "python -m worker examples/weather" in done.stderr
    assert "workflow" not in done.stdout  # nothing was started


@pytest.mark.parametrize(
    "argv, code, says",
    [
        (["--namespace", "no-such-ns", "pending"], EXIT_UNREACHABLE, "no-such-ns"),
        (
            ["--namespace", "no-such-ns", "approve", "adk:weather:u:s", "r1"],
            EXIT_UNREACHABLE,
            "no-such-ns",
        ),
        (["--address", "localhost:1", "pending"], EXIT_UNREACHABLE, "cannot reach Temporal"),
        (
            ["--address", "localhost:1", "approve", "adk:weather:u:s", "r1"],
            EXIT_UNREACHABLE,
            "localhost:1",
        ),
        (["--db", "{not_a_db}", "sessions"], EXIT_UNREACHABLE, "session database"),
        (
            ["--db", "postgresql+asyncpg://nobody@127.0.0.1:1/none", "sessions"],
            EXIT_UNREACHABLE,
            "cannot use the session database postgresql+asyncpg://nobody@127.0.0.1:1/none",
        ),
        (["--db", "sqlite:///x.db", "session", "s1"], EXIT_UNREACHABLE, "sqlite+aiosqlite://"),
        (["run", "--app", "weather", "--session", "s" * 1100, "hi"], EXIT_USAGE, ""),
        (["run", "--app", "weather", "--state", "[1]", "hi"], EXIT_USAGE, "JSON object"),
        (["run", "--app", "weather", "--state", "{", "hi"], EXIT_USAGE, "not JSON"),
    ],
)
def test_failures_print_one_line_and_their_exit_code(temporal_env, tmp_path, argv, code, says):
    address = temporal_env.client.service_client.config.target_host
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("not a database\n" * 200)
    argv = [arg.replace("{not_a_db}", str(not_a_db)) for arg in argv]
    if argv[0] == "run":
        argv = [*argv[:-1], "--wait", argv[-1]]  # past the worker check: Temporal decides
    done = cli(address, tmp_path, *argv)
    assert done.returncode == code, (done.stdout, done.stderr)
    assert says in one_line(done)


def test_debug_adds_the_traceback(temporal_env, tmp_path):
    address = temporal_env.client.service_client.config.target_host
    done = cli(address, tmp_path, "--debug", "--namespace", "no-such-ns", "pending")
    assert done.returncode == EXIT_UNREACHABLE
    assert "Traceback" in done.stderr and done.stderr.rstrip().splitlines()[-1].startswith(
        "error: "
    )


def test_a_message_over_temporals_size_limit_is_bad_input():
    args = type("Args", (), {"address": "localhost:7233", "db": None})()
    refused = RPCError("Blob data size exceeds limit.", RPCStatusCode.INVALID_ARGUMENT, b"")
    code, text = explain(refused, args)  # type: ignore[arg-type]
    assert code == EXIT_USAGE and "too large" in text
