"""LLM flows: the request pipeline (instructions, contents, tools) and function-call handling.

Runs on: activity side (worker process).
"""

from typing import Any

from ..._unported import unported_attribute


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
