"""`kill`: invocations whose worker is SIGKILLed at a random moment.

Runs on: process side. Per round, `batch` invocations start at random offsets
within one clean run's duration; the worker is SIGKILLed at a random moment of
that window and a fresh worker started at once. Each session is then compared
with a clean run of the same script (events' authors, texts, call and response
names, state deltas, and the final state), and real tool executions are counted.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from ._kit import TOOLS_PER_INVOCATION, Lab, differences, percentile, wait_started


async def run(tmp: Path, n: int, batch: int, seed: int) -> None:
    rng = random.Random(seed)
    async with Lab(tmp) as lab:
        worker = lab.start_worker()
        wait_started(worker, tmp / "worker-1.log")
        t0 = time.monotonic()
        clean_run = await _invoke(lab, "clean", 0.0)
        clean_seconds = time.monotonic() - t0
        clean = await lab.outcome("clean")
        print(f"clean run: {clean_seconds:.2f} s, {len(clean[0])} events, state {clean[1]}")
        assert clean_run[1] is None, clean_run
        results: list[tuple[str, str | None, float]] = []  # session, error, kill -> done
        for r in range(0, n, batch):
            sessions = [f"k{i}" for i in range(r, min(r + batch, n))]
            offsets = [rng.uniform(0, clean_seconds) for _ in sessions]
            kill_at = rng.uniform(0.05, clean_seconds + max(offsets))
            runs = [
                asyncio.ensure_future(_invoke(lab, s, o))
                for s, o in zip(sessions, offsets, strict=True)
            ]
            await asyncio.sleep(kill_at)
            lab.kill(worker)
            killed = time.monotonic()
            worker = lab.start_worker()
            for session, error in await asyncio.gather(*runs):
                results.append((session, error, time.monotonic() - killed))
            print(f"  round {r // batch + 1}: killed at {kill_at:.2f} s, done", flush=True)
        await _report(lab, results, clean)


async def _invoke(lab: Lab, session: str, delay: float) -> tuple[str, str | None]:
    await asyncio.sleep(delay)
    try:
        started = await lab.client.start(
            app_name="chaos", user_id="u", session_id=session, new_message="go"
        )
        await asyncio.wait_for(started.handle.result(), 180)
        return session, None
    except Exception as error:
        return session, f"{type(error).__name__}: {error}"


async def _report(lab: Lab, results: list[tuple[str, str | None, float]], clean) -> None:
    runs = lab.tool_runs()
    completed = [s for s, error, _ in results if error is None]
    identical, mismatches = 0, []
    for session in completed:
        found = differences(await lab.outcome(session), clean)
        identical += not found
        mismatches += [f"{session}: {line}" for line in found]
    extra = {s: runs[s] - TOOLS_PER_INVOCATION for s, _, _ in results}
    repeated = sum(max(0, e) for e in extra.values())
    recovery = [seconds for _, error, seconds in results if error is None]
    print(f"\ninvocations: {len(results)}, worker kills: {lab.started - 1}")
    print(f"completed: {len(completed)}/{len(results)}")
    print(f"identical to the clean run: {identical}/{len(completed)}")
    print(
        f"tool executions: {sum(runs[s] for s, _, _ in results)} for"
        f" {TOOLS_PER_INVOCATION * len(results)} calls; repeated {repeated}"
        f" (in {sum(e > 0 for e in extra.values())} invocations)"
    )
    print(
        f"kill -> last invocation of its round done: p50 {percentile(recovery, 50):.1f} s,"
        f" max {max(recovery, default=float('nan')):.1f} s"
    )
    for _, error, _ in results:
        if error:
            print(f"  failed: {error[:200]}")
    for line in mismatches:
        print(f"  mismatch: {line}")
