"""BuiltInCodeExecutor: the model's built-in code execution (not implemented yet).

Runs on: process side.
"""

from __future__ import annotations

from .base_code_executor import BaseCodeExecutor


class BuiltInCodeExecutor(BaseCodeExecutor):
    """Gemini's built-in code execution tool (its name only, for now)."""
