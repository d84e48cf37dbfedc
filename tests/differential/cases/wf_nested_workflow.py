"""A Workflow as a node of a Workflow, inline: its nodes' events are authored by it, on
paths under its run (`wf@1/inner@1/inner_a@1`); its terminal node's output names it in
`output_for` (and the outer workflow too when it ends the graph), and is its output, the
outer successor's input; a resumable app gets its checkpoints and end-of-agent inside
the outer's. A failing node inside fails it, and the run raises the node's exception."""

from google.adk.agents import Context
from google.adk.workflow import START, Workflow

TURNS = ["go", "fail", "again"]
RESUMABLE = True
CONTINUE_AFTER_RAISE = True


class InnerError(Exception):
    pass


def prep(node_input: str) -> str:
    return f"prep {node_input}"


def inner_a(ctx: Context, node_input: str) -> str:
    ctx.state["a"] = ctx.state.get("a", 0) + 1
    if node_input == "prep fail":
        raise InnerError("inner node failed")
    return f"a({node_input})"


def inner_b(node_input: str) -> str:
    return f"b({node_input})"


def after(node_input: str) -> str:
    return f"after {node_input}"


def last_a(node_input: str) -> str:
    return f"last a({node_input})"


def build(scripted):
    inner = Workflow(name="inner", edges=[(START, inner_a, inner_b)])
    tail = Workflow(name="tail", edges=[(START, last_a)])
    return Workflow(name="wf", edges=[(START, prep, inner, after, tail)])
