"""Agents: mirrors `google.adk.agents`.

Runs on: process side (defined in user apps) and activity side (run by the activities).
"""

from typing import TYPE_CHECKING, Any

from .._unported import unported_attribute
from .base_agent import BaseAgent
from .base_agent_config import BaseAgentConfig
from .callback_context import CallbackContext
from .context import Context
from .invocation_context import InvocationContext, LlmCallsLimitExceededError
from .llm_agent import Agent, LlmAgent
from .llm_agent_config import LlmAgentConfig
from .loop_agent import LoopAgent
from .loop_agent_config import LoopAgentConfig
from .parallel_agent import ParallelAgent
from .parallel_agent_config import ParallelAgentConfig
from .readonly_context import ReadonlyContext
from .run_config import RunConfig, StreamingMode
from .sequential_agent import SequentialAgent
from .sequential_agent_config import SequentialAgentConfig

if TYPE_CHECKING:
    from .mcp_instruction_provider import McpInstructionProvider as McpInstructionProvider

__all__ = [
    "Agent",
    "BaseAgent",
    "BaseAgentConfig",
    "CallbackContext",
    "Context",
    "InvocationContext",
    "LlmAgent",
    "LlmAgentConfig",
    "LlmCallsLimitExceededError",
    "LoopAgent",
    "LoopAgentConfig",
    "ParallelAgent",
    "ParallelAgentConfig",
    "ReadonlyContext",
    "RunConfig",
    "SequentialAgent",
    "SequentialAgentConfig",
    "StreamingMode",
]


def __getattr__(name: str) -> Any:
    """McpInstructionProvider on first use (it needs the MCP SDK, an extra, so it is
    not in __all__: `from adk.agents import *` works without it); google.adk names
    not ported yet raise NotImplementedError naming them."""
    if name == "McpInstructionProvider":
        from .mcp_instruction_provider import McpInstructionProvider

        return McpInstructionProvider
    raise unported_attribute(__name__, name)
