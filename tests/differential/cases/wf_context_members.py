"""A node's Context members: its path, run id, attempt count, resume inputs and event
author as the node sees them; an output set on `ctx.output` instead of returned (emitted
after the node returns, with the state written since); an output both set and yielded
(2.13's `Output already set.`)."""

from google.adk.agents import Context
from google.adk.workflow import START, Workflow

TURNS = ["one", "two"]
CONTINUE_AFTER_RAISE = True


def describe(ctx: Context, node_input: str) -> dict:
    return {
        "path": ctx.node_path,
        "run_id": ctx.run_id,
        "attempt": ctx.attempt_count,
        "resume_inputs": ctx.resume_inputs,
        "author": ctx.event_author,
        "node": ctx.node.name,
        "input": node_input,
    }


def set_output(ctx: Context, node_input: dict) -> None:
    ctx.state["seen"] = node_input["path"]
    ctx.output = f"{node_input['input']} via ctx.output"
    ctx.state["after"] = True


async def twice(ctx: Context, node_input: str):
    if node_input.startswith("two"):
        ctx.output = "set"
    yield node_input.upper()


def build(scripted):
    return Workflow(name="wf", edges=[(START, describe, set_output, twice)])
