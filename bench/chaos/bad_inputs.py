"""`bad-inputs`: the CLI's answer to each bad input, as a table.

Runs on: process side. A dev server and a worker serving the chaos app and
examples/money_transfer (one invocation waits for an approval, the answers'
target). Each input runs `python -m client ...` with a 60 s limit; the table
gives the exit code and stderr. A row is flagged when stderr is not exactly one
line, holds a traceback, the exit code is not a documented one, or it hung.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from ._kit import REPO, Lab, wait_started

DOCUMENTED = {0, 1, 2, 3, 4, 5, 6, 7}
W = "adk:money_transfer:u:t1"  # waits for an approval


def cases(tmp: Path, request: str) -> list[tuple[str, list[str]]]:
    text = tmp / "notes.txt"
    text.write_text("not a database\n")
    run = ["run", "--app", "chaos", "--user", "u"]
    return [
        ("empty message", [*run, ""]),
        ("blank message", [*run, "   "]),
        ("unknown app", ["run", "--app", "nope", "hi"]),
        ("blank app", ["run", "--app", "", "hi"]),
        ("app with a control character", ["run", "--app", "a\x01b", "hi"]),
        ("app with a slash", ["run", "--app", "a/b", "hi"]),
        ("blank user", ["run", "--app", "chaos", "--user", " ", "hi"]),
        ("user with a newline", ["run", "--app", "chaos", "--user", "a\nb", "hi"]),
        ("session id of 1100 chars", [*run, "--session", "s" * 1100, "hi"]),
        ("session with a tab", [*run, "--session", "a\tb", "hi"]),
        ("--state not JSON", [*run, "--state", "{", "hi"]),
        ("--state a list", [*run, "--state", "[1]", "hi"]),
        ("--state null", [*run, "--state", "null", "hi"]),
        ("--state a string", [*run, "--state", '"x"', "hi"]),
        ("--state NaN value", [*run, "--state", '{"a": NaN}', "--session", "nan", "hi"]),
        ("--state 100 KB", [*run, "--state", '{"a": "' + "x" * 100_000 + '"}', "hi"]),
        ("message 120 KB", [*run, "x" * 120_000]),
        (
            "busy session",
            ["run", "--app", "money_transfer", "--user", "u", "--session", "t1", "hi"],
        ),
        ("no worker on the queue", ["--task-queue", "empty", *run, "hi"]),
        ("unknown namespace (run)", ["--namespace", "nope", *run, "hi"]),
        ("no server at --address", ["--address", "127.0.0.1:1", *run, "hi"]),
        ("--address not host:port", ["--address", "not an address", *run, "hi"]),
        ("--address empty", ["--address", "", *run, "hi"]),
        ("--db a text file", ["--db", str(text), "sessions"]),
        ("--db a folder", ["--db", str(tmp), "sessions"]),
        ("--db in a missing folder", ["--db", str(tmp / "no" / "x.db"), *run, "hi"]),
        ("approve: unknown workflow", ["approve", "adk:chaos:u:nobody", "r1"]),
        ("approve: not a workflow id", ["approve", "nonsense", "r1"]),
        ("approve: unknown request", ["approve", W, "adk-nope"]),
        ("approve: --payload not JSON", ["approve", W, request, "--payload", "{"]),
        ("approve: a payload it did not ask for", ["approve", W, request, "--payload", '{"x": 1}']),
        ("respond to a confirmation", ["respond", W, request, "--result", '{"ok": true}']),
        ("progress on a confirmation", ["progress", W, request, "--result", '{"ok": true}']),
        ("respond: --result a list", ["respond", W, request, "--result", "[1]"]),
        ("respond: --result missing", ["respond", W, request]),
        ("approve a finished invocation", ["approve", "adk:chaos:u:done", "r1"]),
        ("approve: unknown namespace", ["--namespace", "nope", "approve", W, request]),
        ("approve: no server", ["--address", "127.0.0.1:1", "approve", W, request]),
        ("pending: unknown namespace", ["--namespace", "nope", "pending"]),
        ("pending: unknown app", ["pending", "--app", "nope"]),
        ("follow: no invocation", ["follow", "--app", "chaos", "--user", "u", "nobody"]),
        ("follow: a finished invocation", ["follow", "--app", "chaos", "--user", "u", "done"]),
        ("follow: blank app", ["follow", "--app", "", "s"]),
        ("session: unknown id", ["session", "nobody"]),
        ("sessions: unknown app", ["sessions", "--app", "nope"]),
        ("no command", []),
        ("unknown command", ["frobnicate"]),
        ("run without --app", ["run", "hi"]),
        ("approve without a request id", ["approve", W]),
        ("unknown option", ["run", "--app", "chaos", "--colour", "hi"]),
    ]


async def run(tmp: Path) -> None:
    async with Lab(tmp) as lab:
        wait_started(
            lab.start_worker(Path("bench/apps/chaos"), Path("examples/money_transfer")),
            tmp / "worker-1.log",
        )
        await (
            await lab.client.start(
                app_name="chaos", user_id="u", session_id="done", new_message="go"
            )
        ).handle.result()
        waiting = await lab.client.start(
            app_name="money_transfer",
            user_id="u",
            session_id="t1",
            new_message="Please send 1500 to Bob",
        )
        while not (pending := (await lab.client.status(waiting.workflow_id)).pending):
            await asyncio.sleep(0.1)
        rows = [
            await asyncio.to_thread(_one, lab, label, argv)
            for label, argv in cases(tmp, pending[0].id)
        ]
    flagged = [row for row in rows if row[3]]
    print("| input | exit | message (stderr) |")
    print("|---|---:|---|")
    for label, code, message, flag in rows:
        print(
            f"| {label} | {code} | {message.replace('|', '/')[:220]}{' **' + flag + '**' if flag else ''} |"
        )
    print(
        f"\n{len(rows)} inputs; flagged (not one line, traceback, undocumented code, hang): {len(flagged)}"
    )


def _one(lab: Lab, label: str, argv: list[str]) -> tuple[str, object, str, str]:
    command = [sys.executable, "-m", "client"]
    if not any(a.startswith("--address") for a in argv):
        command += ["--address", lab.server.address]
    if "--task-queue" not in argv:
        command += ["--task-queue", "chaos"]
    if "--db" not in argv:
        command += ["--db", str(lab.store_path)]
    try:
        done = subprocess.run(command + argv, cwd=REPO, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return label, "-", "(no answer in 60 s)", "hangs"
    # a failed invocation's reason comes with its Web UI link (README: exit code 1)
    lines = [x for x in done.stderr.splitlines() if x.strip() and not x.startswith("Web UI:")]
    flag = ""
    if "Traceback" in done.stderr:
        flag = "traceback"
    elif done.returncode not in DOCUMENTED:
        flag = "undocumented exit code"
    elif done.returncode and len(lines) != 1:
        flag = f"{len(lines)} lines"
    message = " / ".join(lines) if lines else (done.stdout.strip().splitlines() or [""])[-1]
    return label, done.returncode, message, flag
