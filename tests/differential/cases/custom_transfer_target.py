"""A custom agent as a transfer target: a root LlmAgent transfers to it; it runs its
sub-agent and yields an event of its own. The next turn goes where 2.13 sends it."""

from typing import AsyncGenerator

from google.adk.agents import BaseAgent, LlmAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event
from google.genai import types

TURNS = ["plan my trip", "and the hotel?"]


class Planner(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        async for event in self.sub_agents[0].run_async(ctx):
            yield event
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            content=types.Content(role="model", parts=[types.Part(text="Plan ready.")]),
        )


def build(scripted):
    call = types.Part.from_function_call
    flights = LlmAgent(name="flights", model=scripted("Flight booked."), instruction="Book.")
    planner = Planner(name="planner", description="Plans trips.", sub_agents=[flights])
    return LlmAgent(
        name="concierge",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "planner"}), "Hotel too."
        ),
        instruction="Send trips to the planner.",
        sub_agents=[planner],
    )
