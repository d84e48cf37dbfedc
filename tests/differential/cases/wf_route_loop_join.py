"""Routes, a loop taken by a route, a fan-out and a JoinNode (google-adk 2.13, design
§1.11 E2): `classify` routes "short" back through `pad` (a second pass is
`classify@2`) until the text is long, then "long" fans out to `left` and `right`
(sub-branches), whose outputs the join gathers as `{name: output}`; `done` reads them
by key (2.13 builds the join's dict from a set: its key order is not compared)."""

from google.adk.agents import Context
from google.adk.events import Event
from google.adk.workflow import START, JoinNode, Workflow

TURNS = ["ab", "abcdef"]
BRANCHES_INTERLEAVE = True


def classify(node_input: str):
    return Event(output=node_input, route="long" if len(node_input) > 3 else "short")


def pad(ctx: Context, node_input: str):
    ctx.state["pads"] = ctx.state.get("pads", 0) + 1
    return node_input + "x"


def left(node_input: str) -> str:
    return "L:" + node_input


def right(ctx: Context, node_input: str) -> str:
    ctx.state["right_saw"] = node_input
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
