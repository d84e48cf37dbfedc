"""The Runner's in-process worker, watched: a stream never waits on a worker that stopped.

Runs on: process side.

A worker's run can end while the Runner streams: a fatal error (Temporal Core
failing its activity or workflow poller; seen in CI as a Rust panic in Core's
local-activity timeout bag while workers restarted, "receive half not dropped"),
a failed start (an unknown namespace), or `Runner.close()`. Nothing then works
the invocation the stream follows, which waits on the server: without a watch,
`run_async` would wait forever. `Watch.step` races each step of a stream against
the run's end and raises WorkerStoppedError as soon as it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")

FatalErrorHook = Callable[[BaseException], Awaitable[None]]


class WorkerStoppedError(RuntimeError):
    """The Runner's in-process worker stopped while `run_async` needed it.

    The invocation itself is not lost: it waits on Temporal for a worker of its
    task queue (close this Runner; a new one, or `python -m worker`, continues it).
    `__cause__` is the worker's fatal error, if it failed.
    """


class Watch:
    """Whether one worker run has ended, and why; made on the loop that runs it."""

    def __init__(self) -> None:
        self._ended: asyncio.Future[BaseException | None] = (
            asyncio.get_running_loop().create_future()
        )

    def fatal_error_hook(self, theirs: FatalErrorHook | None = None) -> FatalErrorHook:
        """The worker's `on_fatal_error`: the error is known before the worker's own
        shutdown steps run (Core's last one can hang), then `theirs` runs."""

        async def on_fatal_error(error: BaseException) -> None:
            self._end(error)
            if theirs is not None:
                await theirs(error)

        return on_fatal_error

    def watch(self, run: asyncio.Task[Any]) -> None:
        """Note the end of the worker's run task (a failed start has no fatal-error call)."""

        def ended(task: asyncio.Task[Any]) -> None:
            error = None if task.cancelled() else task.exception()  # (retrieved: not logged)
            self._end(error)

        run.add_done_callback(ended)

    def _end(self, error: BaseException | None) -> None:
        if not self._ended.done():
            self._ended.set_result(error)

    async def step(self, step: Awaitable[T]) -> T:
        """`step`'s result, or WorkerStoppedError once the worker's run has ended first
        (`step` is then cancelled)."""
        task = asyncio.ensure_future(step)
        either: list[asyncio.Future[Any]] = [task, self._ended]
        try:
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # (the caller's: a timeout, a cancelled task)
            await _cancelled(task)
            raise
        if task.done():
            return task.result()
        await _cancelled(task)
        error = self._ended.result()
        if error is None:
            raise WorkerStoppedError(
                "The Runner's in-process worker stopped (Runner.close()) while run_async was"
                " streaming; the invocation goes on when a worker of its task queue runs."
            )
        raise WorkerStoppedError(
            f"The Runner's in-process worker failed: {type(error).__name__}: {error}"
            f"{_cause(error)}. The invocation waits on Temporal for a worker of its task"
            " queue: close this Runner; a new one (or `python -m worker`) continues it."
        ) from error


async def _cancelled(task: asyncio.Future[Any]) -> None:
    """Cancel `task` and wait until it has stopped: a stream's step runs its generator,
    which can be closed (`aclose`) only once that step is over."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task


def _cause(error: BaseException) -> str:
    cause = error.__cause__
    return f" ({type(cause).__name__}: {cause})" if cause is not None else ""
