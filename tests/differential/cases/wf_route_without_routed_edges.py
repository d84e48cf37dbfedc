"""Routes emitted where no edge is routed: `ctx.route` set directly (emitted on an event
of its own after the node returns, with the output), a route carried by a yielded
Event, and a node setting only a route; unrouted edges fire whatever the route."""

from google.adk.agents import Context
from google.adk.events import Event
from google.adk.workflow import START, Workflow

TURNS = ["go"]


def pick(ctx: Context, node_input: str) -> str:
    ctx.route = "left"
    return node_input


async def carry(node_input: str):
    yield Event(output=f"{node_input}!", route=["a", "b"])


def only_route(ctx: Context, node_input: str) -> None:
    ctx.state["seen"] = node_input
    ctx.route = 3


def build(scripted):
    return Workflow(name="wf", edges=[(START, pick, carry, only_route)])
