"""Tools and state over two turns: a FunctionTool writes session, user: and app: state."""

from google.adk.agents import LlmAgent
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["remember blue", "and now green"]


def remember(color: str, tool_context: ToolContext) -> dict:
    """Remembers a color.

    Args:
      color: The color to remember.
    """
    count = tool_context.state.get("count", 0) + 1
    tool_context.state["count"] = count
    tool_context.state["last_color"] = color
    tool_context.state["user:favorite"] = color
    tool_context.state["app:seen"] = tool_context.state.get("app:seen", []) + [color]
    tool_context.state["temp:scratch"] = "not persisted"
    return {"count": count}


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="remember", args={"color": "blue"}),
            "Remembered blue.",
            call(name="remember", args={"color": "green"}),
            "Remembered green.",
        ),
        instruction="You remember colors.",
        tools=[remember],
    )
