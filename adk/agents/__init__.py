"""Agents: mirrors `google.adk.agents`.

Runs on: process side (defined in user apps) and activity side (run by the activities).
"""

from typing import Any

from .._unported import unported_attribute
from .base_agent import BaseAgent
from .callback_context import CallbackContext
from .context import Context
from .invocation_context import InvocationContext, LlmCallsLimitExceededError
from .llm_agent import Agent, LlmAgent
from .loop_agent import LoopAgent
from .parallel_agent import ParallelAgent
from .readonly_context import ReadonlyContext
from .run_config import RunConfig, StreamingMode
from .sequential_agent import SequentialAgent

__all__ = [
    "Agent",
    "BaseAgent",
    "CallbackContext",
    "Context",
    "InvocationContext",
    "LlmAgent",
    "LlmCallsLimitExceededError",
    "LoopAgent",
    "ParallelAgent",
    "ReadonlyContext",
    "RunConfig",
    "SequentialAgent",
    "StreamingMode",
]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
