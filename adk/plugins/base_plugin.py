"""BasePlugin: google.adk's plugin interface (plugins do not run yet).

Runs on: process side. The hooks have google.adk 2.13's keyword names, so user
plugins import and construct; an App or Runner given plugins raises
NotImplementedError at construction (it would otherwise run without them).
"""

from __future__ import annotations

from abc import ABC
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from google.genai import types

    from ..agents.base_agent import BaseAgent
    from ..agents.callback_context import CallbackContext
    from ..agents.invocation_context import InvocationContext
    from ..events.event import Event
    from ..models.llm_request import LlmRequest
    from ..models.llm_response import LlmResponse
    from ..tools.base_tool import BaseTool
    from ..tools.tool_context import ToolContext

FEATURE = "plugins (they would not run: the agent would behave differently)"


class BasePlugin(ABC):  # noqa: B024 (as google.adk: every hook has a body)
    """Hooks run around every agent, model and tool call of an app. Each returns
    None to go on, or a value that replaces what would happen."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    async def on_user_message_callback(
        self, *, invocation_context: InvocationContext, user_message: types.Content
    ) -> types.Content | None:
        return None

    async def before_run_callback(
        self, *, invocation_context: InvocationContext
    ) -> types.Content | None:
        return None

    async def on_event_callback(
        self, *, invocation_context: InvocationContext, event: Event
    ) -> Event | None:
        return None

    async def after_run_callback(self, *, invocation_context: InvocationContext) -> None:
        return None

    async def close(self) -> None:
        return None

    async def before_agent_callback(
        self, *, agent: BaseAgent, callback_context: CallbackContext
    ) -> types.Content | None:
        return None

    async def after_agent_callback(
        self, *, agent: BaseAgent, callback_context: CallbackContext
    ) -> types.Content | None:
        return None

    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        return None

    async def after_model_callback(
        self, *, callback_context: CallbackContext, llm_response: LlmResponse
    ) -> LlmResponse | None:
        return None

    async def on_model_error_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest, error: Exception
    ) -> LlmResponse | None:
        return None

    async def before_tool_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext
    ) -> dict[str, Any] | None:
        return None

    async def after_tool_callback(
        self,
        *,
        tool: BaseTool,
        tool_args: dict[str, Any],
        tool_context: ToolContext,
        result: dict[str, Any],
    ) -> dict[str, Any] | None:
        return None

    async def on_tool_error_callback(
        self,
        *,
        tool: BaseTool,
        tool_args: dict[str, Any],
        tool_context: ToolContext,
        error: Exception,
    ) -> dict[str, Any] | None:
        return None

    async def on_agent_error_callback(
        self, *, agent: BaseAgent, callback_context: CallbackContext, error: Exception
    ) -> None:
        return None

    async def on_run_error_callback(
        self, *, invocation_context: InvocationContext, error: Exception
    ) -> None:
        return None
