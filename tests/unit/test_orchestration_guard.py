"""The determinism guard of custom agents' orchestration (worker/_guard.py), unit by unit.

Runs on: process side. Whose code a call comes from decides whether a clock or
randomness is refused; the flag survives a generator closed in another context.
"""

from __future__ import annotations

import contextvars
import logging
import sysconfig
import types
from typing import Any

import pytest

from adk.agents import _orchestrating as orchestration
from adk.agents._orchestrating import NondeterministicOrchestrationError
from worker import _guard

SITE = sysconfig.get_paths()["purelib"]
STDLIB = sysconfig.get_paths()["stdlib"]


def frame(module: str, filename: str) -> Any:
    return types.SimpleNamespace(
        f_globals={"__name__": module}, f_code=types.SimpleNamespace(co_filename=filename)
    )


def test_whose_code_is_the_apps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_guard, "_APP_DIRS", {f"{SITE}/shop_agents/", "/srv/project/"})
    app = _guard._app_code
    assert app(frame("story.agent", "/srv/project/story/agent.py"))
    assert app(frame("shop_agents.router", f"{SITE}/shop_agents/router.py"))  # pip-installed
    assert not app(frame("logging", f"{STDLIB}/logging/__init__.py"))
    assert not app(frame("httpx._client", f"{SITE}/httpx/_client.py"))
    assert not app(frame("adk.events.event", "/srv/project/adk/events/event.py"))
    # a project root holding .venv says nothing of the libraries installed there
    monkeypatch.setattr(_guard, "_LIBRARY_DIRS", ("/srv/project/.venv/lib",))
    assert not app(frame("pydantic.main", "/srv/project/.venv/lib/pydantic/main.py"))


def test_refused_only_while_orchestrating_and_remembered_when_caught() -> None:
    orchestration.refuse("time.time()")  # nothing runs: nothing refused
    with orchestration.orchestrating("desk") as run:
        with pytest.raises(NondeterministicOrchestrationError, match="Custom agent desk called"):
            orchestration.refuse("time.time()")
        with orchestration.framework():
            orchestration.refuse("uuid.uuid4()")  # durable-adk's own code: not checked
    assert run.violations == ["time.time()"]
    assert orchestration.running() is None


def test_the_flag_is_set_back_in_any_context() -> None:
    """A workflow evicted from the cache closes its generators in another context."""
    inside = orchestration.framework()
    with orchestration.orchestrating("desk"):
        inside.__enter__()
        assert orchestration.running() is None
    contextvars.copy_context().run(inside.__exit__, None, None, None)  # no ValueError


def test_the_guard_refuses_the_apps_own_calls() -> None:
    import random
    import time

    _guard.install()
    with orchestration.orchestrating("desk"):
        with pytest.raises(NondeterministicOrchestrationError, match=r"called time\.time\(\)"):
            time.time()
        with pytest.raises(NondeterministicOrchestrationError, match=r"random\.choice\(\)"):
            random.choice([1, 2])
        with pytest.raises(NondeterministicOrchestrationError, match="called open"):
            open(__file__).close()
        logging.getLogger("guard-test").info("logging reads the clock itself: fine")
    assert isinstance(time.time(), float)  # outside: the real clock
