"""Model and tool callbacks: edit the request, replace a tool's args check, edit its result."""

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["look up two things"]


def lookup(key: str) -> dict:
    """Looks a key up.

    Args:
      key: The key.
    """
    return {"value": key * 2}


def before_model(callback_context: CallbackContext, llm_request: LlmRequest):
    callback_context.state["model_calls"] = callback_context.state.get("model_calls", 0) + 1
    llm_request.contents.append(
        types.Content(role="user", parts=[types.Part(text="(added by before_model)")])
    )
    return None


def after_model(callback_context: CallbackContext, llm_response: LlmResponse):
    if llm_response.content and llm_response.content.parts[0].text:
        return LlmResponse(
            content=types.Content(role="model", parts=[types.Part(text="rewritten")])
        )
    return None


def before_tool(tool: BaseTool, args: dict, tool_context: ToolContext):
    if args.get("key") == "secret":
        return {"value": "blocked"}
    return None


def after_tool(tool: BaseTool, args: dict, tool_context: ToolContext, tool_response: dict):
    tool_context.state["last_key"] = args["key"]
    return {**tool_response, "checked": True}


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            [call(name="lookup", args={"key": "ab"}), call(name="lookup", args={"key": "secret"})],
            "original text",
        ),
        tools=[lookup],
        before_model_callback=before_model,
        after_model_callback=after_model,
        before_tool_callback=before_tool,
        after_tool_callback=after_tool,
    )
