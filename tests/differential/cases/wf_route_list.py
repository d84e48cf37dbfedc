"""Route lists: an Edge whose route is a list fires when the node's route is any of
them; a node emitting a list of routes takes every edge one of them matches (a
fan-out: each target on its sub-branch); int and bool routes."""

from google.adk.agents import Context
from google.adk.events import Event
from google.adk.workflow import START, Edge, Workflow, node

TURNS = ["a", "b,c", "2", "yes", "none"]
BRANCHES_INTERLEAVE = True


def pick(node_input: str):
    if node_input == "2":
        route = 2
    elif node_input == "yes":
        route = True
    elif "," in node_input:
        route = node_input.split(",")
    else:
        route = node_input
    yield Event(output=node_input, route=route)


def first(ctx: Context, node_input: str) -> None:
    ctx.state["first"] = ctx.state.get("first", []) + [node_input]


def second(ctx: Context, node_input: str) -> None:
    ctx.state["second"] = ctx.state.get("second", []) + [node_input]


def numbered(ctx: Context, node_input: str) -> str:
    return f"numbered {node_input}"


def build(scripted):
    pick_node = node(pick)
    return Workflow(
        name="wf",
        edges=[
            (START, pick_node),
            Edge(from_node=pick_node, to_node=node(first), route=["a", "b"]),
            Edge(from_node=pick_node, to_node=node(second), route=["c", "d"]),
            Edge(from_node=pick_node, to_node=node(numbered), route=[2, True]),
        ],
    )
