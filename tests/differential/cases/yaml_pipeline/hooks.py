from google.adk.agents.callback_context import CallbackContext
from google.adk.tools.tool_context import ToolContext


def bump_version(tool_context: ToolContext) -> dict:
    """Records one more revision."""
    tool_context.state["version"] = tool_context.state.get("version", 0) + 1
    return {"version": tool_context.state["version"]}


def count_rounds(callback_context: CallbackContext):
    callback_context.state["loop_done"] = True
    return None
