from typing import Any, Optional

from google.adk.agents.callback_context import CallbackContext
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types


def count_turns(callback_context: CallbackContext) -> Optional[types.Content]:
    callback_context.state["turns"] = callback_context.state.get("turns", 0) + 1
    return None


def sign_off(callback_context: CallbackContext) -> Optional[types.Content]:
    if callback_context.state.get("turns") == 2:
        return types.Content(role="model", parts=[types.Part(text="(signed off)")])
    return None


def note_request(callback_context: CallbackContext, llm_request: LlmRequest):
    callback_context.state["model_calls"] = callback_context.state.get("model_calls", 0) + 1
    llm_request.contents.append(
        types.Content(role="user", parts=[types.Part(text="(noted by before_model)")])
    )
    return None


async def answer_cached(callback_context: CallbackContext, llm_request: LlmRequest):
    if callback_context.state.get("turns") == 2:
        return LlmResponse(
            content=types.Content(role="model", parts=[types.Part(text="cached: see above")])
        )
    return None


def redact(callback_context: CallbackContext, llm_response: LlmResponse):
    parts = llm_response.content.parts if llm_response.content else []
    if parts and parts[0].text and "hunter2" in parts[0].text:
        text = parts[0].text.replace("hunter2", "[redacted]")
        return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))
    return None


def check_args(tool: BaseTool, args: dict[str, Any], tool_context: ToolContext):
    if args.get("key") == "secret":
        return {"value": "hunter2", "from": "before_tool"}
    return None


async def tag_result(
    tool: BaseTool, args: dict[str, Any], tool_context: ToolContext, tool_response: dict
):
    return {**tool_response, "tagged_by": tool.name}
