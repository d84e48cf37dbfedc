"""The model calls one tool four times in one response; each call appends to one state list."""

from google.adk.agents import LlmAgent
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["add four items"]


def add_item(item: str, tool_context: ToolContext) -> dict:
    """Adds an item to the list.

    Args:
      item: The item to add.
    """
    items = list(tool_context.state.get("items", []))
    items.append(item)
    tool_context.state["items"] = items
    return {"added": item, "size": len(items)}


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            [call(name="add_item", args={"item": item}) for item in ("a", "b", "c", "d")],
            "Added four items.",
        ),
        tools=[add_item],
    )
