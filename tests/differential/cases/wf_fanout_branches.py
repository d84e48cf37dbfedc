"""Fan-out without a join: START's message goes to two nodes at once (each on its own
branch, `left@1` / `right@1`); the left lane fans out again to two nodes (sub-branches
`left@1.finish@1`, `left@1.tail@1`), one of them terminal with an output; the right
lane continues on its branch and ends without an output. At most one terminal output,
so the run succeeds."""

from google.adk.agents import Context
from google.adk.workflow import START, Workflow

TURNS = ["go"]
BRANCHES_INTERLEAVE = True


def left(node_input: str) -> str:
    return f"L:{node_input}"


def right(ctx: Context, node_input: str) -> str:
    ctx.state["right"] = node_input
    return f"R:{node_input}"


def last(ctx: Context, node_input: str) -> None:
    ctx.state["last"] = node_input


def finish(node_input: str) -> str:
    return node_input.upper()


def tail(ctx: Context, node_input: str) -> None:
    ctx.state[f"tail_{node_input[0]}"] = node_input


def build(scripted):
    return Workflow(
        name="wf",
        edges=[(START, (left, right)), (left, (finish, tail)), (right, last)],
    )
