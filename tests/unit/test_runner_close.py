"""Runner.close() when the worker's shutdown never finishes (a Temporal Core hang).

Runs on: test process only.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from adk import Agent
from adk.runners import Runner
from adk.testing import MockModel
from worker import _build as worker_build


class _StuckWorker:
    """A worker whose shutdown never returns, as Core's finalize_shutdown sometimes doesn't."""

    async def shutdown(self) -> None:
        await asyncio.Event().wait()


async def test_close_gives_up_on_a_stuck_worker_shutdown_and_says_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(worker_build, "SHUTDOWN_LIMIT_SECONDS", 0.2)
    runner = Runner(
        app_name="app",
        agent=Agent(name="a", model=MockModel.create(["hi"])),
        temporal_client=object(),
    )
    runner._worker = _StuckWorker()  # type: ignore[assignment]
    with caplog.at_level(logging.WARNING, logger="durable_adk.runner"):
        await asyncio.wait_for(runner.close(), 5)
    assert "did not finish shutting down within 0.2 s" in caplog.text
    assert runner._worker is None
