"""The current time, behind a provider (google-adk 2.13's platform.time).

Runs on: process and activity side (never the workflow: it uses workflow.now()).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar

_default_time_provider: Callable[[], float] = time.time
_provider: ContextVar[Callable[[], float]] = ContextVar(
    "time_provider", default=_default_time_provider
)


def set_time_provider(provider: Callable[[], float]) -> None:
    """Sets the provider of the current time (seconds since the epoch) for the
    current context."""
    _provider.set(provider)


def reset_time_provider() -> None:
    """Back to the default provider (`time.time`)."""
    _provider.set(_default_time_provider)


def get_time() -> float:
    """The current time in seconds since the epoch."""
    return _provider.get()()
