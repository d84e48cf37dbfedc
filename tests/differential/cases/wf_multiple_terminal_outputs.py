"""Two terminal nodes both produce an output: every node runs and its events are
recorded, then 2.13 fails the run with WorkflowConfigurationError (`Workflow wf:
multiple terminal nodes produced output (2). ...`)."""

from google.adk.workflow import START, Workflow

TURNS = ["x", "y"]
BRANCHES_INTERLEAVE = True
CONTINUE_AFTER_RAISE = True


def a(node_input: str) -> str:
    return f"a:{node_input}"


def b(node_input: str) -> str:
    return f"b:{node_input}"


def build(scripted):
    return Workflow(name="wf", edges=[(START, (a, b))])
