"""A google.adk.workflow graph root using slice S2 in a resumable app (S3): a loop taken
by a route, a routing map with DEFAULT_ROUTE, a fan-out joined by a JoinNode under
max_concurrency, a wait_for_output node; the app whose history
tests/histories/graph_routes.json records (tests/histories/record_graph.py routes)."""

from adk.agents import Context
from adk.apps import App, ResumabilityConfig
from adk.events import Event
from adk.workflow import DEFAULT_ROUTE, START, JoinNode, Node, Workflow


def measure(ctx: Context, node_input: str):
    ctx.state["passes"] = ctx.state.get("passes", 0) + 1
    return Event(output=node_input, route="long" if len(node_input) > 6 else "short")


def pad(node_input: str) -> str:
    return node_input + "+"


def left(node_input: str) -> str:
    return "L:" + node_input


def right(ctx: Context, node_input: str) -> str:
    ctx.state["right"] = node_input
    return "R:" + node_input


class Gather(Node):
    """A wait_for_output node (a run without output would leave it waiting)."""

    wait_for_output: bool = True

    async def run_node_impl(self, *, ctx: Context, node_input: dict):
        ctx.state["gathered"] = ctx.state.get("gathered", 0) + 1
        yield f"{node_input['left']}|{node_input['right']}"


def fallback(node_input: str) -> str:
    return "fallback " + node_input


root_agent = Workflow(
    name="routes",
    edges=[
        (START, measure),
        (measure, {"short": pad, "long": (left, right), DEFAULT_ROUTE: fallback}),
        (pad, measure),
        ((left, right), JoinNode(name="join"), Gather(name="gather")),
    ],
    max_concurrency=2,
)

app = App(
    name="graph_routes",
    root_agent=root_agent,
    resumability_config=ResumabilityConfig(is_resumable=True),
)
