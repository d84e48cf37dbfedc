"""Plugins around the run: on_user_message rewrites the message (the rewritten one is
recorded), before_run answers instead of the agents, on_event edits what is recorded."""

from typing import Optional

from google.adk.agents import LlmAgent
from google.adk.events.event import Event
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["shout", "please stop now", "count"]


def count(tool_context: ToolContext) -> dict:
    """Counts."""
    tool_context.state["count"] = tool_context.state.get("count", 0) + 1
    return {"count": tool_context.state["count"]}


class Gatekeeper(BasePlugin):
    async def on_user_message_callback(
        self, *, invocation_context, user_message: types.Content
    ) -> Optional[types.Content]:
        if user_message.parts[0].text == "shout":
            return types.Content(role="user", parts=[types.Part(text="SHOUT")])
        return None

    async def before_run_callback(self, *, invocation_context) -> Optional[types.Content]:
        text = invocation_context.user_content.parts[0].text
        if "stop" in text:
            return types.Content(role="model", parts=[types.Part(text="stopped by the gatekeeper")])
        return None

    async def on_event_callback(self, *, invocation_context, event: Event) -> Optional[Event]:
        if event.content and event.content.parts and event.content.parts[0].text:
            return Event(author=event.author, custom_metadata={"checked": True})
        return None


def plugins():
    return [Gatekeeper(name="gatekeeper")]


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted(
            "heard you",
            types.Part.from_function_call(name="count", args={}),
            "counted",
        ),
        tools=[count],
    )
