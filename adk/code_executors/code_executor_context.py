"""CodeExecutorContext: a code executor's state in the session (not implemented yet).

Runs on: process side.
"""

from __future__ import annotations

from typing import Any

from .._unimplemented import not_implemented
from .base_code_executor import FEATURE


class CodeExecutorContext:
    """google.adk's persistent context of a code executor (its name only, for now)."""

    def __init__(self, session_state: Any) -> None:
        raise not_implemented("CodeExecutorContext", FEATURE)
