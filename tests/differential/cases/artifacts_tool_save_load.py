"""Artifacts from tools and callbacks: versions, bytes and text, custom metadata, a
missing file, listing; the artifact_delta of each event, over two turns."""

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.artifacts import InMemoryArtifactService
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["write the report", "read it back"]


def artifact_service():
    return InMemoryArtifactService()


async def write_report(title: str, tool_context: ToolContext) -> dict:
    """Writes the report.

    Args:
      title: The report's title.
    """
    first = await tool_context.save_artifact("report.txt", types.Part.from_text(text=title))
    second = await tool_context.save_artifact(
        "report.txt",
        types.Part.from_text(text=title + " (final)"),
        custom_metadata={"reviewed": True},
    )
    chart = await tool_context.save_artifact(
        "chart.png", types.Part.from_bytes(data=b"\x89PNG\r\n\x1a\n", mime_type="image/png")
    )
    return {"versions": [first, second, chart]}


async def read_report(tool_context: ToolContext) -> dict:
    """Reads the report back."""
    latest = await tool_context.load_artifact("report.txt")
    first = await tool_context.load_artifact("report.txt", version=0)
    missing = await tool_context.load_artifact("nothing.txt")
    info = await tool_context.get_artifact_version("report.txt")
    return {
        "latest": latest.text,
        "first": first.text,
        "missing": missing is None,
        "listed": await tool_context.list_artifacts(),
        "version": info.version,
        "metadata": info.custom_metadata,
        "mime_type": info.mime_type,
    }


async def note_after(callback_context: CallbackContext):
    listed = await callback_context.list_artifacts()
    await callback_context.save_artifact(
        "log.txt", types.Part.from_text(text=f"{len(listed)} artifacts")
    )


async def note_before_model(callback_context: CallbackContext, llm_request):
    if not await callback_context.load_artifact("model_seen.txt"):
        await callback_context.save_artifact("model_seen.txt", types.Part.from_text(text="yes"))


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="write_report", args={"title": "Q3"}),
            "Written.",
            call(name="read_report", args={}),
            "It says Q3 (final).",
        ),
        instruction="You write and read reports.",
        tools=[write_report, read_report],
        after_agent_callback=note_after,
        before_model_callback=note_before_model,
    )
