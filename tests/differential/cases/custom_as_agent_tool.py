"""A custom agent as an AgentTool's agent: it runs in a session of its own, runs
its sub-agent there, yields its own event, and its last text is the response."""

from typing import AsyncGenerator

from google.adk.agents import BaseAgent, LlmAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event, EventActions
from google.adk.tools.agent_tool import AgentTool
from google.genai import types

TURNS = ["check the spelling of 'recieve'"]


class Checker(BaseAgent):
    """Asks its speller, then reports what state says."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        async for event in self.sub_agents[0].run_async(ctx):
            yield event
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            content=types.Content(
                role="model",
                parts=[types.Part(text=f"Checked: {ctx.session.state.get('spelled')}")],
            ),
            actions=EventActions(state_delta={"checked": True}),
        )


def build(scripted):
    speller = LlmAgent(
        name="speller", model=scripted("receive"), instruction="Spell it.", output_key="spelled"
    )
    checker = Checker(name="checker", description="Checks spelling.", sub_agents=[speller])
    call = types.Part.from_function_call(name="checker", args={"request": "recieve"})
    return LlmAgent(
        name="root",
        model=scripted(call, "It is spelled receive."),
        instruction="Use the checker.",
        tools=[AgentTool(agent=checker)],
    )
