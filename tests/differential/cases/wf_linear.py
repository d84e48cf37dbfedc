"""A linear graph of two function nodes (design E1): the first gets the user message as a
str, the second writes state through ctx; the terminal output is the workflow's."""

from google.adk.agents import Context
from google.adk.workflow import START, Workflow, node

TURNS = ["hi"]


def upper(node_input: str) -> str:
    return node_input.upper()


@node
def count(ctx: Context, node_input: str):
    ctx.state["n"] = len(node_input)
    return {"len": len(node_input)}


def build(scripted):
    return Workflow(name="wf", edges=[(START, upper, count)])
