"""Apps: mirrors `google.adk.apps`.

Runs on: process side.
"""

from .app import App

__all__ = ["App"]
