"""Apps: mirrors `google.adk.apps`."""

from .app import App

__all__ = ["App"]
