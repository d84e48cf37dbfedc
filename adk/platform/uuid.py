"""Unique ids, behind a provider (google-adk 2.13's platform.uuid).

Runs on: process and activity side (never the workflow: it uses workflow.uuid4()).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextvars import ContextVar


def _default_id_provider() -> str:
    return str(uuid.uuid4())


_provider: ContextVar[Callable[[], str]] = ContextVar("id_provider", default=_default_id_provider)


def set_id_provider(provider: Callable[[], str]) -> None:
    """Sets the provider of unique id strings for the current context."""
    _provider.set(provider)


def reset_id_provider() -> None:
    """Back to the default provider (`str(uuid.uuid4())`)."""
    _provider.set(_default_id_provider)


def new_uuid() -> str:
    """A new unique id."""
    return _provider.get()()
