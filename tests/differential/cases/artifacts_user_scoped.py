"""User-scoped artifacts (`user:` names) next to session ones: saved by a tool in one
turn, listed and loaded in the next, and one saved for the user before the session."""

from google.adk.agents import LlmAgent
from google.adk.artifacts import InMemoryArtifactService
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["remember my preference", "what do you know?"]
INITIAL_ARTIFACTS = {"user:older.txt": types.Part.from_text(text="from another session")}


def artifact_service():
    return InMemoryArtifactService()


async def remember(preference: str, tool_context: ToolContext) -> dict:
    """Remembers a preference for every session of the user.

    Args:
      preference: The preference.
    """
    user = await tool_context.save_artifact("user:prefs.txt", types.Part.from_text(text=preference))
    session = await tool_context.save_artifact("scratch.txt", types.Part.from_text(text="draft"))
    return {"user": user, "session": session}


async def recall(tool_context: ToolContext) -> dict:
    """Recalls what is known."""
    prefs = await tool_context.load_artifact("user:prefs.txt")
    bare = await tool_context.load_artifact("prefs.txt")  # session scope: not there
    return {
        "listed": await tool_context.list_artifacts(),
        "prefs": prefs.text,
        "bare_found": bare is not None,
    }


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="remember", args={"preference": "tea"}),
            "Noted.",
            call(name="recall", args={}),
            "You like tea.",
        ),
        tools=[remember, recall],
    )
