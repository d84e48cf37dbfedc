"""Parallel calls saving artifacts: the merged response event's artifact_delta holds
every call's versions."""

from google.adk.agents import LlmAgent
from google.adk.artifacts import InMemoryArtifactService
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["export both"]


def artifact_service():
    return InMemoryArtifactService()


async def export(name: str, tool_context: ToolContext) -> dict:
    """Exports one table.

    Args:
      name: The table.
    """
    own = await tool_context.save_artifact(f"{name}.csv", types.Part.from_text(text=name))
    return {"version": own}


async def log(tool_context: ToolContext) -> dict:
    """Logs the export."""
    version = await tool_context.save_artifact("log.txt", types.Part.from_text(text="logged"))
    return {"version": version}


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            [
                call(name="export", args={"name": "users"}),
                call(name="export", args={"name": "orders"}),
                call(name="log", args={}),
            ],
            "Exported.",
        ),
        tools=[export, log],
    )
