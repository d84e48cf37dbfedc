from google.adk.agents import LlmAgent
from google.adk.workflow import START, Workflow

TURNS = ["write about cats"]


def prep(node_input: str) -> str:
    return "Topic: " + node_input


def build(scripted):
    writer = LlmAgent(name="writer", model=scripted("A poem about cats."), instruction="Write.")

    def shout(node_input: str) -> str:
        return node_input.upper()

    return Workflow(name="wf", edges=[(START, prep, writer, shout)])
