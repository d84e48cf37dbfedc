"""BaseCodeExecutor: google.adk's code-executor interface (code execution is not implemented yet).

Runs on: process side. An LlmAgent given a code executor raises
NotImplementedError at construction; the fields are google.adk 2.13's, so user
executors still import and construct.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from .._unimplemented import not_implemented

FEATURE = "code executors (running the code blocks a model writes)"


class BaseCodeExecutor(BaseModel):
    """Runs the code blocks of model responses (google.adk's fields)."""

    optimize_data_file: bool = False
    stateful: bool = False
    error_retry_attempts: int = 2
    code_block_delimiters: list[tuple[str, str]] = [
        ("```tool_code\n", "\n```"),
        ("```python\n", "\n```"),
    ]
    execution_result_delimiters: tuple[str, str] = ("```tool_output\n", "\n```")
    timeout_seconds: int | None = None

    def execute_code(self, invocation_context: Any, code_execution_input: Any) -> Any:
        raise not_implemented(f"{type(self).__name__}.execute_code", FEATURE)
