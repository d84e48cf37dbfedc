"""Events: the log of a session. Mirrors `google.adk.events`.

Runs on: both sides (pure data, sandbox-safe).
"""

from .event import Event
from .event_actions import EventActions

__all__ = ["Event", "EventActions"]
