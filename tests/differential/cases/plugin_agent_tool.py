"""An AgentTool's agent runs with the caller's plugins (include_plugins=True, the
default): its own run has on_user_message, before_run, on_event and after_run."""

from typing import Optional

from google.adk.agents import LlmAgent
from google.adk.events.event import Event
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.agent_tool import AgentTool
from google.genai import types

TURNS = ["ask the helper"]


class Tracer(BasePlugin):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.observed: list = []

    async def on_user_message_callback(self, *, invocation_context, user_message):
        self.observed.append(("user_message", user_message.parts[0].text))
        return None

    async def before_run_callback(self, *, invocation_context) -> Optional[types.Content]:
        self.observed.append(("before_run", invocation_context.agent.name))
        return None

    async def after_run_callback(self, *, invocation_context) -> None:
        self.observed.append(("after_run", invocation_context.agent.name))

    async def before_agent_callback(self, *, agent, callback_context):
        self.observed.append(("before_agent", agent.name))
        return None

    async def on_event_callback(self, *, invocation_context, event: Event) -> Optional[Event]:
        self.observed.append(("event", event.author))
        return None


def plugins():
    return [Tracer(name="tracer")]


def build(scripted):
    helper = LlmAgent(name="helper", description="Helps.", model=scripted("helped"))
    return LlmAgent(
        name="root",
        model=scripted(
            types.Part.from_function_call(name="helper", args={"request": "help me"}),
            "done",
        ),
        tools=[AgentTool(helper)],
    )
