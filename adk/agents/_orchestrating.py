"""What a custom agent's orchestration (`BaseAgent._run_async_impl`) runs with.

Runs on: both sides (pure: no I/O). A custom agent's `_run_async_impl` runs in
the workflow (workflows/_custom.py), with a context that starts each sub-agent
as a child workflow. Its code must be deterministic; this module holds the
flag that says "the orchestration of agent X is running now" (a ContextVar,
set only while its code runs), the check the worker's hooks call
(worker/_guard.py patches clocks and randomness, and an audit hook refuses file
and network access), and the worker's live apps, where the workflow finds the
agent object whose `_run_async_impl` it runs.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import AsyncGenerator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..events.event import Event
    from .base_agent import BaseAgent

README = "README.md, 'Custom agents'"


class NondeterministicOrchestrationError(RuntimeError):
    """A custom agent's `_run_async_impl` did something that is not deterministic."""


@dataclass
class _Running:
    agent: str
    violations: list[str] = field(default_factory=list)
    """What it tried (kept even when its code catches the error: the run fails anyway)."""


_RUNNING: contextvars.ContextVar[_Running | None] = contextvars.ContextVar(
    "adk_orchestrating", default=None
)


def message(agent: str, what: str) -> str:
    return (
        f"Custom agent {agent} called {what} in its _run_async_impl. A custom agent's"
        " orchestration runs in a durable workflow and is replayed after a crash, so it"
        " must be deterministic: no network, clock, randomness or file access there. Do"
        " I/O in a tool or a sub-agent, read what they found from ctx.session.state"
        f" ({README})."
    )


def running() -> _Running | None:
    """The orchestration running in this context, if any (hooks check it first: fast)."""
    return _RUNNING.get()


def refuse(what: str) -> None:
    """Called by the worker's hooks when orchestration code does `what`: raise."""
    current = _RUNNING.get()
    if current is None:
        return
    current.violations.append(what)
    raise NondeterministicOrchestrationError(message(current.agent, what))


@contextlib.contextmanager
def orchestrating(agent: str) -> Iterator[_Running]:
    """While the custom agent's own code runs (one step of its generator)."""
    current = _Running(agent)
    with _set(current):
        yield current


@contextlib.contextmanager
def framework() -> Iterator[None]:
    """durable-adk's own code called from the orchestration (starting a sub-agent):
    not checked. No `yield` to user code may happen inside."""
    with _set(None):
        yield


@contextlib.contextmanager
def _set(value: _Running | None) -> Iterator[None]:
    # set back rather than reset(token): a workflow evicted from the worker's cache
    # closes its suspended generators in another context, where a token is refused
    before = _RUNNING.get()
    _RUNNING.set(value)
    try:
        yield
    finally:
        _RUNNING.set(before)


class OrchestrationContext:
    """The base of the context a custom agent's `_run_async_impl` gets (the
    workflow's implements it): `sub_agent.run_async(ctx)` runs through it."""

    def _run_sub_agent(self, agent: BaseAgent) -> AsyncGenerator[Event, None]:
        raise NotImplementedError


# ── the worker's live apps, by task queue ──────────────────────────────────────

_LIVE: dict[str, Mapping[str, Any]] = {}
"""task queue -> app name -> App (the worker publishes its apps when it is built)."""


def publish_apps(task_queue: str, apps: Mapping[str, Any]) -> None:
    _LIVE[task_queue] = apps


def live_agent(task_queue: str, app_name: str, agent_name: str) -> BaseAgent | None:
    """The agent object of this worker's app (None: not loaded by this worker)."""
    from ._tree import all_agents

    app = _LIVE.get(task_queue, {}).get(app_name)
    if app is None:
        return None
    return next((a for a in all_agents(app.root_agent) if a.name == agent_name), None)
