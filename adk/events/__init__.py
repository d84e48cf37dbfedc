"""Events: the log of a session. Mirrors `google.adk.events`.

Runs on: both sides (pure data, sandbox-safe).
"""

from typing import Any

from .._unported import unported_attribute
from .event import Event
from .event_actions import EventActions
from .request_input import RequestInput

__all__ = ["Event", "EventActions", "RequestInput"]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
