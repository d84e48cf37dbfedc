"""Instruction templating with {artifact.x}, run without an artifact service."""

from google.adk.agents import LlmAgent

TURNS = ["hello"]


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted("never asked"),
        instruction="Notes: {artifact.notes.txt}",
    )
