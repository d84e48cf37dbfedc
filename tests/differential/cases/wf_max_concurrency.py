"""Workflow(max_concurrency=1): a fan-out of three runs one node at a time in trigger
order (each sees the state the one before wrote), the join after them fires once all
three completed."""

from google.adk.agents import Context
from google.adk.workflow import START, JoinNode, Workflow

TURNS = ["go"]


def _step(ctx: Context, name: str, node_input: str) -> str:
    ctx.state["order"] = ctx.state.get("order", "") + name
    return f"{name}:{ctx.state['order']}"


def a(ctx: Context, node_input: str) -> str:
    return _step(ctx, "a", node_input)


def b(ctx: Context, node_input: str) -> str:
    return _step(ctx, "b", node_input)


def c(ctx: Context, node_input: str) -> str:
    return _step(ctx, "c", node_input)


def summary(node_input: dict) -> str:
    return ",".join(node_input[k] for k in sorted(node_input))


def build(scripted):
    return Workflow(
        name="wf",
        edges=[(START, (a, b, c)), ((a, b, c), JoinNode(name="all"), summary)],
        max_concurrency=1,
    )
