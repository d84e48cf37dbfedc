"""UnsafeLocalCodeExecutor: runs model-written code in-process (not implemented yet).

Runs on: process side.
"""

from __future__ import annotations

from pydantic import Field

from .base_code_executor import BaseCodeExecutor


class UnsafeLocalCodeExecutor(BaseCodeExecutor):
    """Executes code in the current process (its name and fields only, for now)."""

    stateful: bool = Field(default=False, frozen=True, exclude=True)
    optimize_data_file: bool = Field(default=False, frozen=True, exclude=True)
    timeout_seconds: int | None = 300
