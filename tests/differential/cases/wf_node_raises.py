"""A node raises: 2.13 records its error event (error_code = the class name, the
message, the state it wrote before raising) and the run raises the same exception to
the caller; a missing state parameter raises WorkflowDataError the same way; the
session goes on."""

from google.adk.agents import Context
from google.adk.workflow import START, Workflow

TURNS = ["boom", "ok", "missing"]
CONTINUE_AFTER_RAISE = True


class OrderError(Exception):
    pass


def check(ctx: Context, node_input: str) -> str:
    ctx.state["checked"] = node_input
    if node_input == "boom":
        raise OrderError(f"cannot handle {node_input!r}")
    return node_input


def needs(node_input: str, ticket: int) -> str:
    return f"{node_input} #{ticket}"


def route(node_input: str) -> str:
    if node_input == "missing":
        return node_input
    return "fine"


def build(scripted):
    return Workflow(name="wf", edges=[(START, check, route, needs)])
