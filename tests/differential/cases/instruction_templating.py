"""Instruction templating: {key}, {user:key}, {key?} present and absent, non-identifier braces."""

from google.adk.agents import LlmAgent

TURNS = ["hello"]
INITIAL_STATE = {"name": "Ada", "user:city": "London", "present": "here"}


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted("hi Ada"),
        instruction=(
            "Name: {name}. City: {user:city}. Present: {present?}. Absent: [{absent?}]."
            ' JSON: {"a": 1}. Doubled: {{"b": 2}}. Spaced: { name }.'
        ),
    )
