"""DEFAULT_ROUTE: its edge fires only when no specific route matched: a matching
route ("refund"), an unknown one, no route at all, and the DEFAULT_ROUTE value
emitted itself; an unrouted edge from the same node fires whatever the route."""

from google.adk.agents import Context
from google.adk.workflow import DEFAULT_ROUTE, START, Edge, Workflow, node

TURNS = ["refund", "weather", "none", "default"]
BRANCHES_INTERLEAVE = True


def triage(ctx: Context, node_input: str) -> str:
    if node_input == "default":
        ctx.route = DEFAULT_ROUTE
    elif node_input != "none":
        ctx.route = node_input
    return node_input


def refund(node_input: str) -> str:
    return f"refund for {node_input}"


def fallback(node_input: str) -> str:
    return f"fallback for {node_input}"


def audit(ctx: Context, node_input: str) -> None:
    ctx.state["audited"] = ctx.state.get("audited", []) + [node_input]


def build(scripted):
    triage_node = node(triage)
    return Workflow(
        name="wf",
        edges=[
            (START, triage_node),
            (triage_node, {"refund": refund, DEFAULT_ROUTE: fallback}),
            Edge(from_node=triage_node, to_node=node(audit)),
        ],
    )
