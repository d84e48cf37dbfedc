"""wait_for_output: a node whose run ends with neither output nor route stays waiting
(its downstream is not triggered); the next trigger runs it again (`collect@2`), and
that run's output goes on."""

from typing import Any, AsyncGenerator

from google.adk.agents import Context
from google.adk.workflow import START, Node, Workflow

TURNS = ["go"]
BRANCHES_INTERLEAVE = True


def a(node_input: str) -> str:
    return "from a"


def b(node_input: str) -> str:
    return "from b"


class Collect(Node):
    wait_for_output: bool = True

    async def run_node_impl(self, *, ctx: Context, node_input: Any) -> AsyncGenerator[Any, None]:
        items = ctx.state.get("items", []) + [node_input]
        ctx.state["items"] = items
        if len(items) == 2:
            yield " + ".join(items)


def after(ctx: Context, node_input: str) -> str:
    ctx.state["after"] = node_input
    return f"after {node_input}"


def build(scripted):
    collect = Collect(name="collect")
    return Workflow(
        name="wf", edges=[(START, a), (a, (b, collect)), (b, collect), (collect, after)]
    )
