"""An AgentTool's agent with artifacts: 2.13 forwards them to the caller's session (its
own Runner gets a forwarding artifact service): what the agent saves is the caller's,
in the AgentTool response's artifact_delta too, and it sees the caller's artifacts."""

from google.adk.agents import LlmAgent
from google.adk.artifacts import InMemoryArtifactService
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["draft a memo"]
INITIAL_ARTIFACTS = {"brief.txt": types.Part.from_text(text="Keep it short.")}


def artifact_service():
    return InMemoryArtifactService()


async def write_memo(text: str, tool_context: ToolContext) -> dict:
    """Writes the memo.

    Args:
      text: The memo.
    """
    brief = await tool_context.load_artifact("brief.txt")
    version = await tool_context.save_artifact("memo.txt", types.Part.from_text(text=text))
    return {
        "version": version,
        "brief": brief.text if brief else None,
        "listed": await tool_context.list_artifacts(),
    }


def build(scripted):
    call = types.Part.from_function_call
    writer = LlmAgent(
        name="writer",
        description="Writes memos.",
        model=scripted(call(name="write_memo", args={"text": "Short."}), "Memo saved."),
        instruction="Brief: {artifact.brief.txt}",
        tools=[write_memo],
    )
    return LlmAgent(
        name="root",
        model=scripted(call(name="writer", args={"request": "a memo"}), "Done."),
        tools=[AgentTool(writer)],
    )
