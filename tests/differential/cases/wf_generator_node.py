"""Generator nodes: a sync generator yields an Event per letter (state written before
each rides on it), a None (skipped), then its output; state written after the last
yield comes in a final event of its own; an async generator yields an Event as is,
then its output."""

from google.adk.agents import Context
from google.adk.events import Event
from google.adk.workflow import START, Workflow
from google.genai import types

TURNS = ["abc", "xy"]


def _text(text: str) -> types.Content:
    return types.Content(role="model", parts=[types.Part(text=text)])


def letters(ctx: Context, node_input: str):
    for i, letter in enumerate(node_input):
        ctx.state[f"letter_{i}"] = letter
        yield Event(content=_text(letter))
    yield None
    yield "-".join(node_input)
    ctx.state["done"] = len(node_input)


async def shout(ctx: Context, node_input: str):
    yield Event(content=_text("thinking"))
    ctx.state["shouted"] = node_input.upper()
    yield node_input.upper()


def build(scripted):
    return Workflow(name="wf", edges=[(START, letters, shout)])
