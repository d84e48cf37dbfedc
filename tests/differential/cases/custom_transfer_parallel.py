"""A custom agent whose sub-agent transfers, and a custom agent in a ParallelAgent.

Turn 1: the custom root runs `desk`, whose model transfers to its sub-agent
`expert`; the expert answers, then the custom agent goes on to `closer`.
Turn 2: the next message goes where 2.13's _find_agent_to_run sends it (the
custom root: a custom agent cannot take part in transfers).
The ParallelAgent branch runs a custom agent (its events on the branch)."""

from typing import AsyncGenerator

from google.adk.agents import BaseAgent, LlmAgent, ParallelAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event
from google.genai import types

TURNS = ["I need an expert", "thanks"]
BRANCHES_INTERLEAVE = True


class InTurn(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        for agent in self.sub_agents:
            async for event in agent.run_async(ctx):
                yield event
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            branch=ctx.branch,
            content=types.Content(
                role="model", parts=[types.Part(text=f"{self.name} on {ctx.branch}")]
            ),
        )


def build(scripted):
    call = types.Part.from_function_call
    expert = LlmAgent(
        name="expert", model=scripted("Expert answer.", "Expert again."), instruction="Answer."
    )
    desk = LlmAgent(
        name="desk",
        model=scripted(call(name="transfer_to_agent", args={"agent_name": "expert"}), "Desk."),
        instruction="Route.",
        sub_agents=[expert],
        # the branches' events reach the store in either order (timing): not in its request
        include_contents="none",
    )
    left = LlmAgent(name="left", model=scripted("Left.", "Left 2."), instruction="Left.")
    right = LlmAgent(name="right", model=scripted("Right.", "Right 2."), instruction="Right.")
    fan = ParallelAgent(name="fan", sub_agents=[InTurn(name="left_flow", sub_agents=[left]), right])
    return InTurn(name="root_flow", sub_agents=[desk, fan])
