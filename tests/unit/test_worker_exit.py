"""`python -m worker` exits non-zero at once when a worker of it fails fatally.

Runs on: test process only (`_run_until_stopped` with stand-in workers).

A worker whose poller Temporal Core failed serves nothing more while the process
looks alive (CI saw Core panic in its local-activity timeout bag: the activity
worker failed, and the worker's own shutdown steps may then hang). The process
exits with 1 so an orchestrator restarts it; SIGTERM still exits with 0.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import structlog
from structlog.testing import capture_logs

import worker.__main__ as worker_main
from worker import _build as worker_build
from worker.__main__ import _run_until_stopped, fatal_error_hook


class FakeWorker:
    """A worker's run and shutdown; `fail()` reports a fatal error as Temporal's Worker
    does (its on_fatal_error first), then its run's last shutdown step hangs."""

    def __init__(self, on_fatal_error: Any = None) -> None:
        self.on_fatal_error = on_fatal_error
        self.stopped = asyncio.Event()
        self.failing = asyncio.Event()
        self.shutdowns = 0

    async def run(self) -> None:
        stop = asyncio.ensure_future(self.stopped.wait())
        fail = asyncio.ensure_future(self.failing.wait())
        await asyncio.wait([stop, fail], return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        fail.cancel()
        if self.failing.is_set():
            error = RuntimeError("Activity worker failed")
            error.__cause__ = RuntimeError("receive half not dropped: SendError { .. }")
            await self.on_fatal_error(error)
            await asyncio.Event().wait()  # Core's final shutdown step never returns

    async def shutdown(self) -> None:
        self.shutdowns += 1
        if not self.failing.is_set():
            self.stopped.set()
            return
        await asyncio.Event().wait()


def start(workers: list[FakeWorker]) -> asyncio.Task[None]:
    async def run_all() -> None:
        await asyncio.gather(*(w.run() for w in workers))

    return asyncio.create_task(run_all())


async def test_a_fatal_worker_error_exits_with_1_though_its_shutdown_hangs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(worker_build, "SHUTDOWN_LIMIT_SECONDS", 0.2)
    failed: asyncio.Future[BaseException] = asyncio.get_running_loop().create_future()
    workers = [FakeWorker(fatal_error_hook(failed)), FakeWorker(fatal_error_hook(failed))]
    running = start(workers)
    workers[0].failing.set()
    with capture_logs() as logs:
        # a fresh logger (the module's may be cached by an earlier test's configuration)
        monkeypatch.setattr(worker_main, "log", structlog.get_logger("durable_adk.worker"))
        code = await asyncio.wait_for(
            _run_until_stopped(workers, running, asyncio.Event(), 0.0, failed), 5
        )
    assert code == 1
    assert [w.shutdowns for w in workers] == [1, 1]  # the healthy one is stopped too
    assert running.done()
    [failure] = [log for log in logs if log["event"] == "worker failed; exiting"]
    assert failure["log_level"] == "error"
    assert failure["error"] == (
        "RuntimeError: Activity worker failed"
        " (caused by RuntimeError: receive half not dropped: SendError { .. })"
    )


async def test_a_run_that_raises_without_a_fatal_error_report_exits_with_1() -> None:
    """E.g. a failed start (an unknown namespace): Worker.run raises, no on_fatal_error."""
    failed: asyncio.Future[BaseException] = asyncio.get_running_loop().create_future()
    workers = [FakeWorker()]

    async def refused() -> None:
        raise RuntimeError("Namespace nowhere is not found")

    running = asyncio.create_task(refused())
    code = await asyncio.wait_for(
        _run_until_stopped(workers, running, asyncio.Event(), 0.0, failed), 5
    )
    assert code == 1


async def test_a_stop_exits_with_0() -> None:
    failed: asyncio.Future[BaseException] = asyncio.get_running_loop().create_future()
    workers = [FakeWorker(fatal_error_hook(failed))]
    running = start(workers)
    stop = asyncio.Event()
    stop.set()
    code = await asyncio.wait_for(_run_until_stopped(workers, running, stop, 0.0, failed), 5)
    assert code == 0
    assert workers[0].shutdowns == 1
