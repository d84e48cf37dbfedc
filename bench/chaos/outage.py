"""`outage`: the Temporal server stopped (SIGKILL) mid-run for a few seconds and
for a minute, then started again on the same database file.

Runs on: process side. Per outage, `n` `python -m client run` processes stream
their invocations; one more is killed during the outage, as a user would close
the terminal, and reattached with `python -m client follow` after the restart.
Reports exit codes, the CLI's "lost contact" lines, completed / identical
sessions, repeated tool executions, and the time from the restart to the end.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

from ._kit import REPO, TOOLS_PER_INVOCATION, Lab, differences, wait_started


def _cli(lab: Lab, *argv: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "client", "--address", lab.server.address]
    command += ["--task-queue", "chaos", "--db", str(lab.store_path), *argv]
    return subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


async def run(tmp: Path, n: int, outages: list[float]) -> None:
    async with Lab(tmp, env={"CHAOS_TOOL_SECONDS": "1.0"}) as lab:
        wait_started(lab.start_worker(), tmp / "worker-1.log")
        await (
            await lab.client.start(
                app_name="chaos", user_id="u", session_id="clean", new_message="go"
            )
        ).handle.result()
        clean = await lab.outcome("clean")
        for seconds in outages:
            await _one(lab, n, seconds, clean)


async def _one(lab: Lab, n: int, seconds: float, clean) -> None:
    tag = f"o{seconds:g}"
    sessions = [f"{tag}-{i}" for i in range(n + 1)]
    clis = [
        _cli(lab, "run", "--app", "chaos", "--user", "u", "--session", s, "go") for s in sessions
    ]
    while not all(lab.tool_runs()[s] for s in sessions):  # every invocation has begun
        await asyncio.sleep(0.05)
    lab.server.stop(kill=True)
    clis[-1].kill()  # the user closes one terminal during the outage
    await asyncio.sleep(seconds)
    lab.server.start()
    restarted = time.monotonic()
    clis[-1] = _cli(lab, "follow", "--app", "chaos", "--user", "u", sessions[-1])
    outputs = [await asyncio.to_thread(c.communicate, timeout=600) for c in clis]
    done = time.monotonic() - restarted
    codes = [c.returncode for c in clis]
    told = sum(err.count("lost contact with Temporal") for _, err in outputs)
    tracebacks = sum("Traceback" in err for _, err in outputs)
    runs = lab.tool_runs()
    identical, notes = 0, []
    for s in sessions:
        found = differences(await lab.outcome(s), clean)
        identical += not found
        notes += [f"{s}: {line}" for line in found]
    print(f"\noutage {seconds:g} s, {n} `client run` + 1 reattached with `follow`:")
    print(
        f"  exit codes: {codes}; final answers printed: {sum('final answer: All steps recorded.' in o for o, _ in outputs)}/{len(clis)}"
    )
    print(f"  'lost contact' lines: {told}; tracebacks: {tracebacks}")
    print(f"  identical to the clean run: {identical}/{len(sessions)}")
    print(
        f"  tool executions repeated: {sum(max(0, runs[s] - TOOLS_PER_INVOCATION) for s in sessions)}"
    )
    print(f"  restart -> every client done: {done:.1f} s")
    for line in notes:
        print(f"  mismatch: {line}")
    for code, (_out, err) in zip(codes, outputs, strict=True):
        if code:
            print(f"  exit {code}: {err.strip()[-300:]}")
