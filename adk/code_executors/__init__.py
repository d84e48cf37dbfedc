"""Code executors: mirrors `google.adk.code_executors`.

Runs on: activity side. BuiltInCodeExecutor (the model runs the code),
UnsafeLocalCodeExecutor (a process on the worker's machine, one activity per
execution) and your own BaseCodeExecutor subclasses. The container and cloud
executors (ContainerCodeExecutor, GkeCodeExecutor, VertexAiCodeExecutor,
AgentEngineSandboxCodeExecutor) raise NotImplementedError naming them.
"""

from typing import Any

from .._unported import unported_attribute
from .base_code_executor import BaseCodeExecutor
from .built_in_code_executor import BuiltInCodeExecutor
from .code_executor_context import CodeExecutorContext
from .unsafe_local_code_executor import UnsafeLocalCodeExecutor

__all__ = [
    "BaseCodeExecutor",
    "BuiltInCodeExecutor",
    "CodeExecutorContext",
    "UnsafeLocalCodeExecutor",
]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
