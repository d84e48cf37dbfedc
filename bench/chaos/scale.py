"""`scale`: three workers, `in_flight` invocations kept running, one worker
SIGKILLed (and a fresh one started) every `kill_every` seconds.

Runs on: process side. New invocations start as others finish until `duration`
has passed; then the rest are awaited. Reports completed / failed / unfinished,
duplicated tool executions, sessions that differ from a clean run, and the
p50/p95 of each invocation's time from start to result. `store="postgres"`
puts the session store on a throwaway PostgreSQL (Debian's package, on
loopback, with its default durability), shared by every worker and the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path

from ._kit import TOOLS_PER_INVOCATION, Lab, differences, percentile, wait_started


@contextlib.asynccontextmanager
async def _lab(tmp: Path, store: str) -> AsyncIterator[Lab]:
    """The scenario's lab on a SQLite file, or on a throwaway PostgreSQL."""
    if store == "sqlite":
        async with Lab(tmp) as lab:
            yield lab
        return
    from tests._postgres import postgres_server

    with postgres_server(durable=True) as url:
        async with Lab(tmp, db_url=url) as lab:
            yield lab


async def run(
    tmp: Path,
    in_flight: int,
    duration: float,
    kill_every: float,
    workers: int,
    seed: int,
    store: str = "sqlite",
) -> None:
    rng = random.Random(seed)
    async with _lab(tmp, store) as lab:
        procs = [lab.start_worker() for _ in range(workers)]
        wait_started(procs[0], tmp / "worker-1.log")
        await (
            await lab.client.start(
                app_name="chaos", user_id="u", session_id="clean", new_message="go"
            )
        ).handle.result()
        clean = await lab.outcome("clean")
        latencies: list[float] = []
        failed: list[str] = []
        unfinished: list[str] = []
        sessions: list[str] = []
        stop_at = time.monotonic() + duration
        slots = asyncio.Semaphore(in_flight)

        async def one(i: int) -> None:
            session = f"s{i}"
            sessions.append(session)
            t = time.monotonic()
            try:
                started = await lab.client.start(
                    app_name="chaos", user_id="u", session_id=session, new_message="go"
                )
                await asyncio.wait_for(started.handle.result(), duration + 600)
                latencies.append(time.monotonic() - t)
            except TimeoutError:
                unfinished.append(session)  # still running: the bench stopped waiting
            except Exception as error:
                failed.append(f"{session}: {type(error).__name__}: {error}"[:200])
            finally:
                slots.release()

        async def feed() -> list[asyncio.Future[None]]:
            tasks, i = [], 0
            while time.monotonic() < stop_at:
                await slots.acquire()
                tasks.append(asyncio.ensure_future(one(i)))
                i += 1
            return tasks

        async def killer() -> int:
            kills = 0
            while time.monotonic() + kill_every < stop_at:
                await asyncio.sleep(kill_every)
                victim = rng.choice(procs)
                lab.kill(victim)
                procs[procs.index(victim)] = lab.start_worker()
                kills += 1
            return kills

        t0 = time.monotonic()
        tasks, kills = await asyncio.gather(feed(), killer())
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - t0
        runs = lab.tool_runs()
        extra = sum(max(0, runs[s] - TOOLS_PER_INVOCATION) for s in sessions)
        differing = []
        for session in sessions:
            if session not in unfinished and not any(f.startswith(f"{session}:") for f in failed):
                if found := differences(await lab.outcome(session), clean):
                    differing.append(f"{session}: {found[0]}")
    print(
        f"{workers} workers on a {store} session store, {in_flight} in flight,"
        f" a worker SIGKILLed every {kill_every:g} s"
    )
    print(f"invocations: {len(sessions)} in {elapsed:.0f} s; worker kills: {kills}")
    print(
        f"completed: {len(latencies)}, failed: {len(failed)},"
        f" unfinished after {duration + 600:.0f} s: {len(unfinished)}"
    )
    print(f"tool executions repeated: {extra} (of {TOOLS_PER_INVOCATION * len(sessions)} calls)")
    print(f"differ from the clean run: {len(differing)}")
    print(
        f"start -> result: p50 {percentile(latencies, 50):.1f} s, p95 {percentile(latencies, 95):.1f} s"
    )
    for line in failed[:10] + differing[:10]:
        print(f"  {line}")
