"""Tools: mirrors `google.adk.tools`.

Runs on: activity side (worker process).

The names that need `adk.agents` (ToolContext is a CallbackContext) are
imported lazily: LlmAgent imports tool modules, so importing them eagerly here
would run in a circle through the two packages' `__init__`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .base_tool import BaseTool
from .base_toolset import BaseToolset
from .tool_confirmation import ToolConfirmation

if TYPE_CHECKING:
    from .agent_tool import AgentTool
    from .exit_loop_tool import exit_loop
    from .function_tool import FunctionTool
    from .long_running_tool import LongRunningFunctionTool
    from .tool_context import ToolContext
    from .transfer_to_agent_tool import TransferToAgentTool, transfer_to_agent

_LAZY = {
    "AgentTool": ".agent_tool",
    "FunctionTool": ".function_tool",
    "LongRunningFunctionTool": ".long_running_tool",
    "ToolContext": ".tool_context",
    "exit_loop": ".exit_loop_tool",
    "transfer_to_agent": ".transfer_to_agent_tool",
    "TransferToAgentTool": ".transfer_to_agent_tool",
}

__all__ = [
    "AgentTool",
    "BaseTool",
    "BaseToolset",
    "FunctionTool",
    "LongRunningFunctionTool",
    "ToolConfirmation",
    "ToolContext",
    "TransferToAgentTool",
    "exit_loop",
    "transfer_to_agent",
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
