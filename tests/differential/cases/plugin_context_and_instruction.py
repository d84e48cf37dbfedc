"""GlobalInstructionPlugin (templated from state) and ContextFilterPlugin (keep the last
two invocations, with a custom filter on top), over four turns with a tool call."""

from google.adk.agents import LlmAgent
from google.adk.plugins.context_filter_plugin import ContextFilterPlugin
from google.adk.plugins.global_instruction_plugin import GlobalInstructionPlugin
from google.genai import types

TURNS = ["one", "two", "three", "four"]
INITIAL_STATE = {"user:name": "Ada"}


def note(text: str) -> dict:
    """Notes something.

    Args:
      text: What to note.
    """
    return {"noted": text}


def no_empty(contents):
    return [c for c in contents if c.parts]


def plugins():
    return [
        GlobalInstructionPlugin("Always be kind to {user:name}."),
        ContextFilterPlugin(num_invocations_to_keep=2, custom_filter=no_empty),
    ]


def build(scripted):
    return LlmAgent(
        name="root",
        instruction="Answer briefly.",
        model=scripted(
            "first",
            types.Part.from_function_call(name="note", args={"text": "two"}),
            "second",
            "third",
            "fourth",
        ),
        tools=[note],
    )
