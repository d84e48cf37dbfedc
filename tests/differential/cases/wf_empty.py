"""A Workflow without edges: it runs nothing and yields no events (the user's message
is still recorded)."""

from google.adk.workflow import Workflow

TURNS = ["hi", "again"]


def build(scripted):
    return Workflow(name="wf")
