"""wf_route_loop_join in a resumable app (design §1.11 E2): a checkpoint when each node
starts and completes, `left` and `right` running at once (their checkpoints compared by
the transitions they record: kit `_checkpoints_by_transition`), end-of-agent last."""

from google.adk.agents import Context
from google.adk.events import Event
from google.adk.workflow import START, JoinNode, Workflow

TURNS = ["abcd"]
RESUMABLE = True
BRANCHES_INTERLEAVE = True


def classify(node_input: str):
    return Event(output=node_input, route="long" if len(node_input) > 3 else "short")


def pad(ctx: Context, node_input: str):
    ctx.state["pads"] = ctx.state.get("pads", 0) + 1
    return node_input + "x"


def left(node_input: str) -> str:
    return "L:" + node_input


def right(node_input: str) -> str:
    return "R:" + node_input


join = JoinNode(name="join")


def done(node_input: dict) -> str:
    return node_input["left"] + "|" + node_input["right"]


def build(scripted):
    return Workflow(
        name="wf",
        edges=[
            (START, classify),
            (classify, {"short": pad, "long": (left, right)}),
            (pad, classify),
            ((left, right), join, done),
        ],
    )
