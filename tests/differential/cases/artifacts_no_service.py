"""A tool saving an artifact when the Runner has no artifact service: 2.13's ValueError."""

from google.adk.agents import LlmAgent
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["save it"]


async def save(tool_context: ToolContext) -> dict:
    """Saves a note."""
    version = await tool_context.save_artifact("note.txt", types.Part.from_text(text="hi"))
    return {"version": version}


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted(types.Part.from_function_call(name="save", args={}), "never"),
        tools=[save],
    )
