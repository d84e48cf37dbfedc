"""Instruction templating with a {key} missing from state (no `?`)."""

from google.adk.agents import LlmAgent

TURNS = ["hello"]


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted("never asked"),
        instruction="Hello {missing_key}.",
    )
