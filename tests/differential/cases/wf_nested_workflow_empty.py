"""A nested Workflow without edges runs nothing and has no output: its successor gets
None (a resumable app: its checkpoints and end-of-agent as 2.13 records them)."""

from google.adk.workflow import START, Workflow

TURNS = ["go"]
RESUMABLE = True


def after(node_input) -> str:
    return f"after {node_input}"


def build(scripted):
    return Workflow(name="wf", edges=[(START, Workflow(name="hollow"), after)])
