"""Apps: mirrors `google.adk.apps`.

Runs on: process side.
"""

from .app import App, EventsCompactionConfig, ResumabilityConfig

__all__ = ["App", "EventsCompactionConfig", "ResumabilityConfig"]
