"""A node that yields a second output: 2.13 refuses it (`Output already set. A node can
produce at most one output.`, a ValueError) with an error event carrying the state
written since the first output, and the run raises it to the caller."""

from google.adk.agents import Context
from google.adk.workflow import START, Workflow

TURNS = ["abc"]


def letters(ctx: Context, node_input: str):
    for i, letter in enumerate(node_input):
        ctx.state[f"letter_{i}"] = letter
        yield letter


def after(node_input: str) -> str:
    return node_input


def build(scripted):
    return Workflow(name="wf", edges=[(START, letters, after)])
