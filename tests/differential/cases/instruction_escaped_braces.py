"""Instruction templating with doubled braces around an identifier: {{literal}}."""

from google.adk.agents import LlmAgent

TURNS = ["hello"]
INITIAL_STATE = {"name": "Ada"}


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted("hi"),
        instruction="Hello {name}, keep {{literal}} as it is.",
    )
