"""Thread creation, behind an optional factory (google-adk 2.13's platform.thread).

Runs on: process and activity side. google-adk looks for a platform-specific
factory in a `platform.internal` module of its own build; none ships, here as in
google-adk's published package, so `internal_thread` is None unless a host sets it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol


class _ThreadFactory(Protocol):
    """An optional platform-specific thread factory."""

    def create_thread(
        self, target: Callable[..., None], *args: object, **kwargs: object
    ) -> threading.Thread:
        """Creates a thread."""
        ...


internal_thread: _ThreadFactory | None = None


def create_thread(target: Callable[..., None], *args: object, **kwargs: object) -> threading.Thread:
    """A thread (not started) that runs `target(*args, **kwargs)`."""
    if internal_thread is not None:
        return internal_thread.create_thread(target, *args, **kwargs)
    return threading.Thread(target=target, args=args, kwargs=kwargs)
