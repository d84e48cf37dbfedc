"""Inventory: an app with plugins, served durably (`python -m worker examples/inventory`).

- ReflectAndRetryToolPlugin turns a failed tool call into guidance the model sees
  (here: an unknown item), so the model retries with another name instead of the
  invocation failing.
- GlobalInstructionPlugin puts one instruction before every agent's.
- AuditPlugin, our own: counts tool calls in the user's state (recorded with the
  call's response, so it survives workers and retries) and logs each finished run.
- ExampleTool shows the model one worked example (a question, the check_stock
  call, its result and the answer) in its system instruction, as google-adk
  renders few-shot examples.

With GOOGLE_API_KEY (or GEMINI_API_KEY, or Vertex settings) it uses Gemini;
otherwise an offline model that asks for the item the user named, then for its
singular when the plugin says the lookup failed.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncGenerator
from typing import Any

import structlog
from google.genai import types

from adk import Agent
from adk.apps import App
from adk.examples import Example
from adk.models import BaseLlm, LlmRequest, LlmResponse
from adk.plugins import BasePlugin, ReflectAndRetryToolPlugin
from adk.plugins.global_instruction_plugin import GlobalInstructionPlugin
from adk.tools import ExampleTool

STOCK = {"widget": 12, "gadget": 0, "sprocket": 7}
log = structlog.get_logger("inventory")


def check_stock(item: str) -> dict:
    """Returns how many of an item are in stock.

    Args:
      item: The item's name, singular (e.g. "widget").
    """
    if item not in STOCK:
        raise KeyError(f"no item named {item!r}; known items: {', '.join(sorted(STOCK))}")
    return {"item": item, "in_stock": STOCK[item]}


class AuditPlugin(BasePlugin):
    """Counts tool calls per user, in state; logs each run's end."""

    def __init__(self) -> None:
        super().__init__(name="audit")

    async def before_tool_callback(self, *, tool: Any, tool_args: dict, tool_context: Any) -> None:
        state = tool_context.state
        state["user:tool_calls"] = state.get("user:tool_calls", 0) + 1
        return None

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        log.info("run finished", invocation=invocation_context.invocation_id)


class OfflineInventoryModel(BaseLlm):
    """Offline stand-in: looks up the item named; on a reflection, tries the singular."""

    model: str = "offline-inventory-model"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        response = next(
            (p.function_response for p in last.parts or [] if p.function_response), None
        )
        if response is None:
            said = " ".join(p.text or "" for p in last.parts or [])
            match = re.search(r"(\w+)\s*(?:\?|$)", said.strip())
            part = _lookup(match.group(1).lower() if match else "widget")
        elif (data := response.response or {}).get("reflection_guidance"):
            asked = (response.name and _last_item(llm_request)) or "widget"
            part = _lookup(asked.rstrip("s"))
        else:
            part = types.Part(text=f"We have {data['in_stock']} {data['item']}(s) in stock.")
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def _lookup(item: str) -> types.Part:
    return types.Part.from_function_call(name="check_stock", args={"item": item})


def _last_item(llm_request: LlmRequest) -> str | None:
    for content in reversed(llm_request.contents):
        for part in content.parts or []:
            if part.function_call and part.function_call.name == "check_stock":
                return str((part.function_call.args or {}).get("item"))
    return None


def _model() -> str | BaseLlm:
    has_key = os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")
    vertex = os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in ("1", "true")
    return "gemini-2.5-flash" if (has_key or vertex) else OfflineInventoryModel()


EXAMPLES = ExampleTool(
    [
        Example(
            input=types.Content(role="user", parts=[types.Part(text="Any sprockets left?")]),
            output=[
                types.Content(role="model", parts=[_lookup("sprocket")]),
                types.Content(
                    role="user",
                    parts=[
                        types.Part.from_function_response(
                            name="check_stock", response={"item": "sprocket", "in_stock": 7}
                        )
                    ],
                ),
                types.Content(role="model", parts=[types.Part(text="We have 7 sprockets.")]),
            ],
        )
    ]
)

root_agent = Agent(
    name="inventory_agent",
    model=_model(),
    description="Answers stock questions.",
    instruction="Use check_stock to answer questions about what is in stock.",
    tools=[check_stock, EXAMPLES],
)

app = App(
    name="inventory",
    root_agent=root_agent,
    plugins=[
        GlobalInstructionPlugin("Answer in one sentence."),
        ReflectAndRetryToolPlugin(max_retries=2),
        AuditPlugin(),
    ],
)
