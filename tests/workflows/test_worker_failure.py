"""A worker that stops or cannot start: what waits on it ends at once, clearly.

Runs on: process side (the tests' process, on the session's local Temporal).

CI once saw Temporal Core panic in its local-activity timeout bag while workers
restarted ("receive half not dropped", local_activities.rs): the activity worker
failed, Temporal's Worker.run raised, and the turn's stream waited until the
suite's stall guard ended the run. Here the activity worker's poll loop fails the
same way (Temporal's own fatal-error path runs: on_fatal_error, shutdown, raise).
`python -m worker`'s own exit on a fatal error: tests/unit/test_worker_exit.py.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from datetime import timedelta
from typing import Any

import pytest
import structlog
from structlog.testing import capture_logs

import worker.__main__ as worker_main
from adk import Agent
from adk.runners import Runner
from adk.testing import MockModel
from durable_adk import WorkerStoppedError
from durable_adk import runner as runner_module
from worker import _build as worker_build
from worker.__main__ import parse_args, serve
from workflows import names

from .helpers import call, user_text

LIMIT = 30.0
"""Seconds the failure may take to reach the stream (it takes well under one)."""


def activity_worker_fails_once_started(
    monkeypatch: pytest.MonkeyPatch, temporal: Any, workflow_id: str
) -> None:
    """The Runner's workers fail as Core's panic made one fail: its activity worker's
    poll loop raises (here once the invocation's workflow has started)."""
    build = runner_module.build_worker

    def failing(*args: Any, **kwargs: Any) -> Any:
        worker = build(*args, **kwargs)

        async def poll_loop() -> None:
            handle = temporal.get_workflow_handle(workflow_id)
            while True:  # the stream is waiting once the workflow exists
                try:
                    await handle.describe()
                    break
                except Exception:
                    await asyncio.sleep(0.05)
            raise RuntimeError("Activity worker failed") from RuntimeError(
                "receive half not dropped: SendError { .. }"
            )

        worker._activity_worker.run = poll_loop  # Temporal's internals: see the docstring
        return worker

    monkeypatch.setattr(runner_module, "build_worker", failing)


async def test_a_stream_ends_at_once_when_the_in_process_worker_fails(
    temporal_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (the failed worker's last shutdown step may hang: the Runner's close gives up sooner)
    monkeypatch.setattr(worker_build, "SHUTDOWN_LIMIT_SECONDS", 1.0)
    session = f"fails-{uuid.uuid4().hex[:8]}"
    workflow_id = names.invocation_workflow_id("failing_app", "u1", session)
    activity_worker_fails_once_started(monkeypatch, temporal_env.client, workflow_id)
    runner = Runner(
        app_name="failing_app",
        agent=Agent(name="clerk", model=MockModel.create(["Done."])),
        temporal_client=temporal_env.client,
        task_queue=f"fails-{uuid.uuid4().hex[:8]}",
        auto_create_session=True,
    )
    try:
        started = time.monotonic()
        with pytest.raises(WorkerStoppedError) as raised:
            async with asyncio.timeout(LIMIT):
                async for _ in runner.run_async(
                    user_id="u1", session_id=session, new_message=user_text("hi")
                ):
                    pass
        assert time.monotonic() - started < LIMIT
        assert "in-process worker failed: RuntimeError: Activity worker failed" in str(raised.value)
        assert "receive half not dropped" in str(raised.value)
        assert isinstance(raised.value.__cause__, RuntimeError)
        # the Runner stays broken until closed: the next call says so at once
        with pytest.raises(WorkerStoppedError):
            async with asyncio.timeout(LIMIT):
                async for _ in runner.run_async(
                    user_id="u1", session_id=session, invocation_id="any", new_message=None
                ):
                    pass
    finally:  # (the failed worker's local activity never ends: the workflow goes)
        await temporal_env.client.get_workflow_handle(workflow_id).terminate()
        await runner.close()


async def test_closing_the_runner_ends_a_stream_it_serves(temporal_env: Any) -> None:
    """`close()` while a stream waits (here on a tool): WorkerStoppedError, not a hang."""
    release = asyncio.Event()
    called = asyncio.Event()

    async def slow_tool() -> str:
        """Takes its time."""
        called.set()
        await release.wait()
        return "ok"

    agent = Agent(
        name="clerk",
        model=MockModel.create([call("slow_tool"), "Done."]),
        tools=[slow_tool],
    )
    runner = Runner(
        app_name="closing_app",
        agent=agent,
        temporal_client=temporal_env.client,
        task_queue=f"closing-{uuid.uuid4().hex[:8]}",
        auto_create_session=True,
        worker_options={"graceful_shutdown_timeout": timedelta(0)},
    )

    async def stream() -> None:
        async for _ in runner.run_async(
            user_id="u1", session_id=f"closing-{uuid.uuid4().hex[:8]}", new_message=user_text("go")
        ):
            pass

    streaming = asyncio.create_task(stream())
    await asyncio.wait_for(called.wait(), LIMIT)
    await runner.close()
    with pytest.raises(WorkerStoppedError, match=r"stopped \(Runner.close\(\)\)"):
        await asyncio.wait_for(streaming, LIMIT)


async def test_a_callers_timeout_ends_a_watched_stream_cleanly(temporal_env: Any) -> None:
    """The caller's own timeout (the differential kit's turn limit) cancels the step the
    watch runs: TimeoutError, not "aclose(): asynchronous generator is already running";
    the Runner's next message then waits for the dropped invocation, as after a break."""
    release = asyncio.Event()
    called = asyncio.Event()

    async def slow_tool() -> str:
        """Takes its time."""
        called.set()
        await release.wait()
        return "ok"

    agent = Agent(
        name="clerk",
        model=MockModel.create([call("slow_tool"), "Done.", "Again."]),
        tools=[slow_tool],
    )
    session = f"timeout-{uuid.uuid4().hex[:8]}"
    async with Runner(
        app_name="timeout_app",
        agent=agent,
        temporal_client=temporal_env.client,
        task_queue=f"timeout-{uuid.uuid4().hex[:8]}",
        auto_create_session=True,
    ) as runner:
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(LIMIT) as limit:
                async for _ in runner.run_async(
                    user_id="u1", session_id=session, new_message=user_text("go")
                ):
                    await called.wait()
                    limit.reschedule(asyncio.get_running_loop().time())  # now
        release.set()
        events = [
            e
            async for e in runner.run_async(
                user_id="u1", session_id=session, new_message=user_text("again")
            )
        ]
    assert [e.content.parts[0].text for e in events if e.content] == ["Again."]


async def test_python_m_worker_for_an_unknown_namespace_stops_with_one_line(
    temporal_env: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exit 2 and what Temporal said (it was a traceback and exit 1)."""
    address = temporal_env.client.service_client.config.target_host
    args = parse_args(
        ["examples/weather", "--address", address, "--namespace", "no-such-ns"]
        + ["--db", str(tmp_path / "s.db"), "--memory", "none", "--artifacts", "none"]
    )
    with capture_logs() as logs:
        # a fresh logger (the module's may be cached by an earlier test's configuration)
        monkeypatch.setattr(worker_main, "log", structlog.get_logger("durable_adk.worker"))
        assert await asyncio.wait_for(serve(args), LIMIT) == 2
    [refused] = [log for log in logs if log["event"] == "Temporal refused the worker"]
    assert refused["namespace"] == "no-such-ns"
    assert "Namespace no-such-ns is not found" in refused["error"]
