"""A LongRunningFunctionTool whose function returns None; the user answers it later."""

from google.adk.agents import LlmAgent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types


def ask_for_approval(purpose: str, tool_context: ToolContext) -> None:
    """Asks a manager to approve.

    Args:
      purpose: What the approval is for.
    """
    tool_context.state["asked"] = purpose
    return None


def approve(events):
    """The manager's answer, sent as ADK's docs show: a FunctionResponse for the call."""
    call = next(c for e in events for c in e.get_function_calls() if c.name == "ask_for_approval")
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "approved"})
    return types.Content(role="user", parts=[types.Part(function_response=response)])


TURNS = ["ask for approval", approve]


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted(
            types.Part.from_function_call(name="ask_for_approval", args={"purpose": "trip"}),
            "The trip is approved.",
        ),
        tools=[LongRunningFunctionTool(func=ask_for_approval)],
    )
