"""A linear graph in a resumable app (design §1.7): the workflow records a checkpoint
(`agent_state.nodes`, each node's status and interrupts) when a node starts and when it
completes, and an end-of-agent event after a clean finish; a node routing to itself
shows a node's second run reusing its entry; a node failing ends the run without a
checkpoint of its failure or an end-of-agent."""

from google.adk.agents import Context
from google.adk.events import Event
from google.adk.workflow import START, Workflow, node

TURNS = ["hi", "boom", "again"]
RESUMABLE = True
CONTINUE_AFTER_RAISE = True


def upper(node_input: str):
    if node_input == "boom":
        raise ValueError("boom")
    return Event(output=node_input.upper(), route="again" if node_input == "again" else None)


@node
def count(ctx: Context, node_input):
    ctx.state["n"] = ctx.state.get("n", 0) + 1
    if ctx.state["n"] == 2:
        ctx.route = "loop"
    return {"len": len(node_input)}


def build(scripted):
    return Workflow(name="wf", edges=[(START, upper, count), (count, {"loop": count})])
