"""The errors a user catches, at google.adk's module paths (`google.adk.errors.*`).

Runs on: process and activity side (plain exception classes).
"""

from typing import Any

from .._unported import unported_attribute
from ._invocation_not_found_error import InvocationNotFoundError
from ._stale_session_error import StaleSessionError

__all__ = ["InvocationNotFoundError", "StaleSessionError"]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
