from google.adk.tools import FunctionTool
from google.adk.tools.tool_context import ToolContext


def lookup(key: str, tool_context: ToolContext) -> dict:
    """Looks a key up.

    Args:
      key: The key.
    """
    tool_context.state["looked_up"] = tool_context.state.get("looked_up", []) + [key]
    return {"value": key + "pie"}


def reverse_lookup(key: str) -> dict:
    """Looks a key up elsewhere.

    Args:
      key: The key.
    """
    return {"value": key[::-1]}


reverse_lookup_tool = FunctionTool(reverse_lookup)  # an instance, named in the YAML
