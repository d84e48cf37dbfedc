"""Tools: mirrors `google.adk.tools`.

Runs on: activity side (worker process).

The names that need `adk.agents` (ToolContext is a CallbackContext) are
imported lazily: LlmAgent imports tool modules, so importing them eagerly here
would run in a circle through the two packages' `__init__`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .._unported import unported_attribute
from .base_tool import BaseTool
from .base_toolset import BaseToolset
from .tool_confirmation import ToolConfirmation

if TYPE_CHECKING:
    from ._request_input_tool import request_input
    from .agent_tool import AgentTool
    from .enterprise_search_tool import enterprise_web_search_tool as enterprise_web_search
    from .example_tool import ExampleTool
    from .exit_loop_tool import exit_loop
    from .function_tool import FunctionTool
    from .get_user_choice_tool import get_user_choice_tool as get_user_choice
    from .google_maps_grounding_tool import google_maps_grounding
    from .google_search_tool import google_search
    from .load_artifacts_tool import load_artifacts_tool as load_artifacts
    from .load_memory_tool import load_memory_tool as load_memory
    from .long_running_tool import LongRunningFunctionTool
    from .mcp_tool.mcp_toolset import MCPToolset, McpToolset
    from .preload_memory_tool import preload_memory_tool as preload_memory
    from .tool_context import ToolContext
    from .transfer_to_agent_tool import TransferToAgentTool, transfer_to_agent
    from .url_context_tool import url_context
    from .vertex_ai_search_tool import VertexAiSearchTool

_LAZY = {  # name -> (module, attribute)
    "AgentTool": (".agent_tool", "AgentTool"),
    "ExampleTool": (".example_tool", "ExampleTool"),
    "FunctionTool": (".function_tool", "FunctionTool"),
    "LongRunningFunctionTool": (".long_running_tool", "LongRunningFunctionTool"),
    "MCPToolset": (".mcp_tool.mcp_toolset", "MCPToolset"),
    "McpToolset": (".mcp_tool.mcp_toolset", "McpToolset"),
    "ToolContext": (".tool_context", "ToolContext"),
    "TransferToAgentTool": (".transfer_to_agent_tool", "TransferToAgentTool"),
    "VertexAiSearchTool": (".vertex_ai_search_tool", "VertexAiSearchTool"),
    "exit_loop": (".exit_loop_tool", "exit_loop"),
    "enterprise_web_search": (".enterprise_search_tool", "enterprise_web_search_tool"),
    "google_maps_grounding": (".google_maps_grounding_tool", "google_maps_grounding"),
    "get_user_choice": (".get_user_choice_tool", "get_user_choice_tool"),
    "google_search": (".google_search_tool", "google_search"),
    "load_artifacts": (".load_artifacts_tool", "load_artifacts_tool"),
    "load_memory": (".load_memory_tool", "load_memory_tool"),
    "preload_memory": (".preload_memory_tool", "preload_memory_tool"),
    "request_input": ("._request_input_tool", "request_input"),
    "transfer_to_agent": (".transfer_to_agent_tool", "transfer_to_agent"),
    "url_context": (".url_context_tool", "url_context"),
}

__all__ = [
    "AgentTool",
    "BaseTool",
    "BaseToolset",
    "ExampleTool",
    "FunctionTool",
    "LongRunningFunctionTool",
    "MCPToolset",
    "McpToolset",
    "ToolConfirmation",
    "ToolContext",
    "TransferToAgentTool",
    "VertexAiSearchTool",
    "enterprise_web_search",
    "exit_loop",
    "get_user_choice",
    "google_maps_grounding",
    "google_search",
    "load_artifacts",
    "load_memory",
    "preload_memory",
    "request_input",
    "transfer_to_agent",
    "url_context",
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise unported_attribute(__name__, name)
    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(module, __name__), attribute)
    globals()[name] = value
    return value
