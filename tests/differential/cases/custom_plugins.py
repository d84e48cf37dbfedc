"""Plugins around a custom agent: their agent hooks run for it and for the agents it
runs (a plugin's before_agent content skips one of them), on_event sees its own
events, and an exception from its orchestration reaches on_agent_error (its
level) and on_run_error, as in google-adk 2.13."""

from typing import AsyncGenerator, Optional

from google.adk.agents import BaseAgent, LlmAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event, EventActions
from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types

TURNS = ["first", "second"]
CONTINUE_AFTER_RAISE = True


class Watch(BasePlugin):
    def __init__(self, name: str) -> None:
        super().__init__(name=name)
        self.observed: list = []

    async def before_agent_callback(self, *, agent, callback_context) -> Optional[types.Content]:
        self.observed.append(("before_agent", agent.name))
        if agent.name == "skipped":
            return types.Content(role="model", parts=[types.Part(text="skipped by plugin")])
        return None

    async def after_agent_callback(self, *, agent, callback_context) -> Optional[types.Content]:
        self.observed.append(("after_agent", agent.name))
        return None

    async def on_agent_error_callback(self, *, agent, callback_context, error) -> None:
        self.observed.append(("agent_error", agent.name, type(error).__name__, str(error)))

    async def on_event_callback(self, *, invocation_context, event: Event) -> Optional[Event]:
        self.observed.append(("event", event.author))
        return None

    async def after_run_callback(self, *, invocation_context) -> None:
        self.observed.append(("after_run", invocation_context.agent.name))

    async def on_run_error_callback(self, *, invocation_context, error) -> None:
        self.observed.append(("run_error", type(error).__name__))


class Flow(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        for agent in self.sub_agents:
            async for event in agent.run_async(ctx):
                yield event
        turns = ctx.session.state.get("turns", 0) + 1
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            actions=EventActions(state_delta={"turns": turns}),
        )
        if turns > 1:
            raise RuntimeError("flow gives up on turn 2")


def plugins():
    return [Watch(name="watch")]


def build(scripted):
    worker = LlmAgent(name="worker", model=scripted("Worked.", "Worked again."))
    skipped = LlmAgent(name="skipped", model=scripted())
    return Flow(name="flow", sub_agents=[worker, skipped])
