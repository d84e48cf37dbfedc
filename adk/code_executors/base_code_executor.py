"""BaseCodeExecutor: google.adk 2.13's code-executor interface.

Runs on: activity side. The model step finds the code block a model wrote; the
code-execution activity (`adk.execute_code`) calls `execute_code` in the worker.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

from pydantic import BaseModel

from .code_execution_utils import CodeExecutionInput, CodeExecutionResult

if TYPE_CHECKING:
    from ..agents.invocation_context import InvocationContext


class BaseCodeExecutor(BaseModel):
    """Runs the code blocks of model responses (google.adk's fields)."""

    optimize_data_file: bool = False
    """Extract CSV files from the request for the code (durable-adk: not implemented;
    an agent given an executor with it set raises NotImplementedError)."""
    stateful: bool = False
    """Executions of one session share an execution id (the session's)."""
    error_retry_attempts: int = 2
    """Consecutive failed executions of an invocation after which code is no longer run."""
    code_block_delimiters: list[tuple[str, str]] = [
        ("```tool_code\n", "\n```"),
        ("```python\n", "\n```"),
    ]
    execution_result_delimiters: tuple[str, str] = ("```tool_output\n", "\n```")
    timeout_seconds: int | None = None
    """The timeout of one execution (the executor enforces it)."""

    @abc.abstractmethod
    def execute_code(
        self, invocation_context: InvocationContext, code_execution_input: CodeExecutionInput
    ) -> CodeExecutionResult:
        """Run the code and return its result (called in a thread of the worker)."""
