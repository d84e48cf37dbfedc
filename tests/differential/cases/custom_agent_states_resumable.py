"""A custom agent in a resumable app using InvocationContext's resumability helpers as
google-adk 2.13's workflow agents do: ctx.is_resumable, set_agent_state and the agent-state
events (BaseAgent._create_agent_state_event), should_pause_invocation on its sub-agent's
events, reset_sub_agent_states; what the context then holds is in its own event."""

from typing import AsyncGenerator

from google.adk.agents import BaseAgent, LlmAgent
from google.adk.agents.base_agent import BaseAgentState
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event
from google.genai import types

TURNS = ["hi", "again"]


class Stepper(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        paused = []
        if ctx.is_resumable:
            ctx.set_agent_state(self.name, agent_state=BaseAgentState())
            yield self._create_agent_state_event(ctx)
        for sub in self.sub_agents:
            async for event in sub.run_async(ctx):
                paused.append(ctx.should_pause_invocation(event))
                yield event
        ctx.reset_sub_agent_states(self.name)
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            branch=ctx.branch,
            content=types.Content(
                role="model",
                parts=[
                    types.Part(
                        text=f"resumable={ctx.is_resumable} paused={paused} states={sorted(ctx.agent_states)} ends={sorted(ctx.end_of_agents)}"
                    )
                ],
            ),
        )
        if ctx.is_resumable:
            ctx.set_agent_state(self.name, end_of_agent=True)
            yield self._create_agent_state_event(ctx)


def build(scripted):
    a = LlmAgent(name="a", model=scripted("A1.", "A2.", model="a-model"))
    return Stepper(name="stepper", sub_agents=[a])


RESUMABLE = True
