"""PluginManager's rules (registration, dispatch, close) and how apps carry plugins.

Runs on: test process only. The hooks' effects on runs are compared with google-adk
2.13 in tests/differential/cases/plugin_*.py.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from adk import Agent
from adk.apps.app import App, plugin_manager_of
from adk.plugins import BasePlugin
from adk.plugins.plugin_manager import PluginManager
from worker import AppLoadError, load_app


class Answers(BasePlugin):
    def __init__(self, name: str, answer: object = None) -> None:
        super().__init__(name)
        self.answer = answer
        self.calls = 0

    async def before_run_callback(self, *, invocation_context: object) -> object:
        self.calls += 1
        return self.answer


async def test_the_first_answer_wins_and_later_plugins_are_skipped() -> None:
    first, second, third = Answers("a"), Answers("b", "from b"), Answers("c", "from c")
    manager = PluginManager([first, second, third])
    assert await manager.run_before_run_callback(invocation_context=None) == "from b"
    assert (first.calls, second.calls, third.calls) == (1, 1, 0)
    assert manager.get_plugin("c") is third and manager.get_plugin("x") is None


def test_two_plugins_of_one_name_are_refused_as_google_adk_refuses_them() -> None:
    with pytest.raises(ValueError, match="^Plugin with name 'a' already registered.$"):
        PluginManager([Answers("a"), Answers("a")])


def test_overrides_tells_which_hooks_do_something() -> None:
    manager = PluginManager([Answers("a")])
    assert manager.overrides("before_run_callback")
    assert not manager.overrides("after_run_callback")
    assert not PluginManager().overrides("before_run_callback")


async def test_a_raising_hook_is_wrapped_a_raising_notification_is_not() -> None:
    class Raises(BasePlugin):
        async def before_run_callback(self, *, invocation_context: object) -> None:
            raise KeyError("boom")

        async def on_run_error_callback(self, *, invocation_context: object, error: Exception):
            raise KeyError("ignored")

    told: list[Exception] = []

    class Told(BasePlugin):
        async def on_run_error_callback(self, *, invocation_context: object, error: Exception):
            told.append(error)

    manager = PluginManager([Raises("r"), Told("t")])
    with pytest.raises(RuntimeError) as raised:
        await manager.run_before_run_callback(invocation_context=None)
    assert str(raised.value) == "Error in plugin 'r' during 'before_run_callback' callback: 'boom'"
    assert isinstance(raised.value.__cause__, KeyError)
    error = ValueError("x")
    await manager.run_on_run_error_callback(invocation_context=None, error=error)
    assert told == [error]  # the raising plugin did not stop the next one


async def test_close_closes_each_plugin_and_reports_the_failures_together() -> None:
    closed: list[str] = []

    class Closing(BasePlugin):
        def __init__(self, name: str, how: str = "ok") -> None:
            super().__init__(name)
            self.how = how

        async def close(self) -> None:
            if self.how == "slow":
                await asyncio.sleep(5)
            if self.how == "bad":
                raise OSError("disk")
            closed.append(self.name)

    manager = PluginManager(
        [Closing("a"), Closing("slow", "slow"), Closing("bad", "bad"), Closing("z")],
        close_timeout=0.05,
    )
    with pytest.raises(
        RuntimeError, match="^Failed to close plugins: 'slow': TimeoutError, 'bad': OSError$"
    ):
        await manager.close()
    assert closed == ["a", "z"]
    manager.set_skip_closing_plugins(True)
    await manager.close()  # owned elsewhere: a no-op
    assert closed == ["a", "z"]


def test_an_app_has_one_manager_for_its_plugins() -> None:
    plugin = Answers("a")
    app = App(name="app", root_agent=Agent(name="root", model="m"), plugins=[plugin])
    assert plugin_manager_of(app) is plugin_manager_of(app)
    assert plugin_manager_of(app).plugins == [plugin]


def test_a_worker_refuses_an_app_whose_plugins_share_a_name(tmp_path: Path) -> None:
    folder = tmp_path / "dupes"
    folder.mkdir()
    (folder / "agent.py").write_text(
        "from adk import Agent\n"
        "from adk.apps import App\n"
        "from adk.plugins import BasePlugin\n"
        "root_agent = Agent(name='a', model='m')\n"
        "app = App(name='dupes', root_agent=root_agent,"
        " plugins=[BasePlugin('p'), BasePlugin('p')])\n"
    )
    with pytest.raises(AppLoadError, match="Plugin with name 'p' already registered"):
        load_app(str(folder))
