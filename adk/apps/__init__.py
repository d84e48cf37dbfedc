"""Apps: mirrors `google.adk.apps`.

Runs on: process side.
"""

from typing import Any

from .._unported import unported_attribute
from .app import App, EventsCompactionConfig, ResumabilityConfig

__all__ = ["App", "EventsCompactionConfig", "ResumabilityConfig"]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
