"""Plugins told of failures: on_agent_error at each agent level on the way up, then
on_run_error; after_run only after a run that ended well. A raising tool's exception
still reaches the caller; the session goes on."""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types

TURNS = ["fine", "break"]
CONTINUE_AFTER_RAISE = True


class Broken(Exception):
    pass


def fragile(mode: str) -> dict:
    """Fails on demand.

    Args:
      mode: "ok" or "fail".
    """
    if mode == "fail":
        raise Broken("the fragile tool broke")
    return {"ok": True}


class Watcher(BasePlugin):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.observed: list = []

    async def after_run_callback(self, *, invocation_context) -> None:
        events = invocation_context.session.events
        self.observed.append(("after_run", len(events), events[-1].author))

    async def on_agent_error_callback(self, *, agent, callback_context, error) -> None:
        self.observed.append(("agent_error", agent.name, type(error).__name__, str(error)))

    async def on_run_error_callback(self, *, invocation_context, error) -> None:
        self.observed.append(("run_error", type(error).__name__, str(error)))


class Careless(BasePlugin):
    """Raises in a notification: the other plugins are still told, the error stays."""

    async def on_run_error_callback(self, *, invocation_context, error) -> None:
        raise RuntimeError("careless")


def plugins():
    return [Careless(name="careless"), Watcher(name="watcher")]


def build(scripted):
    call = types.Part.from_function_call
    worker = LlmAgent(
        name="worker",
        model=scripted(
            call(name="fragile", args={"mode": "ok"}),
            "all fine",
            call(name="fragile", args={"mode": "fail"}),
        ),
        tools=[fragile],
    )
    return SequentialAgent(name="pipeline", sub_agents=[worker])
