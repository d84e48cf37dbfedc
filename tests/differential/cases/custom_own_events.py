"""A custom agent that yields its own events: state deltas (it reads them back
at once: the state changes when its event is appended), a text, and an event
that escalates, ending the LoopAgent it runs in (the loop's next agent and
iterations do not run). Its caller, a SequentialAgent, goes on after the loop."""

from typing import AsyncGenerator

from google.adk.agents import BaseAgent, LlmAgent, LoopAgent, SequentialAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event, EventActions
from google.genai import types

TURNS = ["draft until it is good"]
INITIAL_STATE = {"goal": 2}


class Checker(BaseAgent):
    """Counts rounds in state; escalates when the goal is reached."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        rounds = ctx.session.state.get("rounds", 0) + 1
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            branch=ctx.branch,
            actions=EventActions(state_delta={"rounds": rounds, "temp:seen": True}),
        )
        seen = ctx.session.state["rounds"]
        text = f"round {seen} of {ctx.session.state['goal']}; draft: {ctx.session.state['draft']}"
        done = seen >= ctx.session.state["goal"]
        yield Event(
            invocation_id=ctx.invocation_id,
            author=self.name,
            branch=ctx.branch,
            content=types.Content(role="model", parts=[types.Part(text=text)]),
            actions=EventActions(escalate=done or None),
        )


def build(scripted):
    drafter = LlmAgent(
        name="Drafter",
        model=scripted("draft one", "draft two"),
        instruction="Write a draft. Round {rounds?}.",
        output_key="draft",
    )
    never = LlmAgent(name="Never", model=scripted("only in round 1"), instruction="Comment.")
    loop = LoopAgent(
        name="Refine", sub_agents=[drafter, Checker(name="Checker"), never], max_iterations=5
    )
    closer = LlmAgent(
        name="Closer", model=scripted("Final: {draft}"), instruction="Close with {draft}."
    )
    return SequentialAgent(name="Pipeline", sub_agents=[loop, closer])
