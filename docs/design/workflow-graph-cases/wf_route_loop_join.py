from google.adk.agents import Context
from google.adk.events import Event
from google.adk.workflow import START, JoinNode, Workflow

TURNS = ["abc"]


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
