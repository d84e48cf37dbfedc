"""A custom agent that ends its invocation, and one whose orchestration raises.

Turn 1: after its first sub-agent it sets ctx.end_invocation: the next
sub-agent it starts does not run, its own later event is still recorded, and
its after_agent_callback is skipped. Turn 2: it raises after a sub-agent ran;
the caller gets the same exception, the sub-agent's events stay recorded."""

from typing import AsyncGenerator

from google.adk.agents import BaseAgent, LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event
from google.genai import types

TURNS = ["stop early", "break"]
CONTINUE_AFTER_RAISE = True


class Stopper(BaseAgent):
    first: LlmAgent
    second: LlmAgent

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        async for event in self.first.run_async(ctx):
            yield event
        if ctx.session.state.get("said") == "Stop.":
            ctx.end_invocation = True
        else:
            raise ValueError(f"cannot handle {ctx.session.state.get('said')!r}")
        async for event in self.second.run_async(ctx):
            yield event
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            content=types.Content(role="model", parts=[types.Part(text="Stopped.")]),
        )


def after(callback_context: CallbackContext):
    return types.Content(role="model", parts=[types.Part(text="after ran")])


def build(scripted):
    first = LlmAgent(
        name="First", model=scripted("Stop.", "Go on."), instruction="Decide.", output_key="said"
    )
    second = LlmAgent(name="Second", model=scripted("never"), instruction="Answer.")
    return Stopper(
        name="Stopper",
        first=first,
        second=second,
        sub_agents=[first, second],
        after_agent_callback=after,
    )
