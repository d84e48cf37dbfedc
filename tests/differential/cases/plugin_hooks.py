"""Plugins around the agent, model and tool steps: they run before the agent's own
callbacks, in registration order, and the first that answers wins (the rest skipped)."""

from typing import Any, Optional

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["look things up", "again"]


def lookup(key: str) -> dict:
    """Looks a key up.

    Args:
      key: The key.
    """
    if key == "broken":
        raise ValueError("lookup is broken for this key")
    return {"value": key * 2}


class Guard(BasePlugin):
    """Answers some calls itself; notes the steps it saw in state."""

    async def before_agent_callback(self, *, agent, callback_context: CallbackContext):
        callback_context.state["guard_agents"] = callback_context.state.get("guard_agents", 0) + 1
        return None

    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> Optional[LlmResponse]:
        llm_request.contents.append(
            types.Content(role="user", parts=[types.Part(text="(guard was here)")])
        )
        return None

    async def after_model_callback(
        self, *, callback_context: CallbackContext, llm_response: LlmResponse
    ) -> Optional[LlmResponse]:
        if llm_response.content and llm_response.content.parts[0].text == "secret answer":
            return LlmResponse(
                content=types.Content(role="model", parts=[types.Part(text="[redacted]")])
            )
        return None

    async def before_tool_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext
    ) -> Optional[dict]:
        if tool_args.get("key") == "cached":
            return {"value": "from cache"}
        return None

    async def on_tool_error_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext, error
    ) -> Optional[dict]:
        return {"error": f"guard caught: {error}"}


class Auditor(BasePlugin):
    """Registered second: sees only what Guard let through."""

    async def before_tool_callback(self, *, tool, tool_args, tool_context: ToolContext):
        seen = tool_context.state.get("audited", [])
        tool_context.state["audited"] = seen + [tool_args.get("key")]
        return None

    async def after_tool_callback(self, *, tool, tool_args, tool_context, result):
        return {**result, "audited": True}

    async def after_agent_callback(self, *, agent, callback_context: CallbackContext):
        return types.Content(role="model", parts=[types.Part(text=f"audit of {agent.name} done")])


def plugins():
    return [Guard(name="guard"), Auditor(name="auditor")]


def agent_before_tool(tool: BaseTool, args: dict, tool_context: ToolContext):
    tool_context.state["agent_before_tool"] = tool_context.state.get("agent_before_tool", 0) + 1
    return None


def agent_after_model(callback_context: CallbackContext, llm_response: LlmResponse):
    # skipped when a plugin answered (the redacted answer)
    callback_context.state["agent_after_model"] = (
        callback_context.state.get("agent_after_model", 0) + 1
    )
    return None


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            [
                call(name="lookup", args={"key": "ab"}),
                call(name="lookup", args={"key": "cached"}),
                call(name="lookup", args={"key": "broken"}),
            ],
            "secret answer",
            call(name="lookup", args={"key": "zz"}),
            "plain answer",
        ),
        tools=[lookup],
        before_tool_callback=agent_before_tool,
        after_model_callback=agent_after_model,
    )
