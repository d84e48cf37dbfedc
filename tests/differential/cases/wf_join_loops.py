"""A JoinNode that START feeds directly (START's part counts as arrived: the user's
message under `__START__`) and that fires again on a loop's second pass (`join@2`:
each firing waits for every predecessor to complete again); the fan-out below a
sub-branch (`split@1.a@1`) joins on the branches' common prefix."""

from google.adk.agents import Context
from google.adk.workflow import START, JoinNode, Workflow

TURNS = ["go"]
BRANCHES_INTERLEAVE = True


def split(ctx: Context, node_input) -> str:
    ctx.state["splits"] = ctx.state.get("splits", 0) + 1
    return f"round {ctx.state['splits']}"


def a(node_input: str) -> str:
    return "a " + node_input


def b(node_input: str) -> str:
    return "b " + node_input


def check(ctx: Context, node_input: dict) -> str:
    ctx.state["rounds"] = ctx.state.get("rounds", 0) + 1
    ctx.route = "again" if ctx.state["rounds"] < 2 else "stop"
    return f"{node_input['a']} & {node_input['b']} ({len(node_input)} inputs)"


def build(scripted):
    join = JoinNode(name="join")
    return Workflow(
        name="wf",
        edges=[
            (START, split),
            (START, join),
            (split, (a, b)),
            ((a, b), join, check),
            (check, {"again": split}),
        ],
    )
