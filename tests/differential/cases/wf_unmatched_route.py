"""A route no edge matches (and no DEFAULT_ROUTE edge): the branch ends there (2.13
logs a warning), the workflow finishes without output; the other lane of the fan-out
goes on."""

from google.adk.agents import Context
from google.adk.workflow import START, Workflow

TURNS = ["go", "left"]
BRANCHES_INTERLEAVE = True


def router(ctx: Context, node_input: str) -> str:
    ctx.route = "nowhere" if node_input == "go" else node_input
    return node_input


def lane(ctx: Context, node_input: str) -> None:
    ctx.state["lane"] = node_input


def on_left(node_input: str) -> str:
    return "went left"


def build(scripted):
    return Workflow(
        name="wf",
        edges=[(START, (router, lane)), (router, {"left": on_left, "right": lane})],
    )
