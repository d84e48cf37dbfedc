"""StaleSessionError: google.adk.errors' class, for code that catches it.

Runs on: process and activity side. durable-adk's session services never raise it:
each append applies its own delta (see the README's Session store section).
"""

from __future__ import annotations


class StaleSessionError(ValueError):
    """A session write lost an optimistic concurrency race (a ValueError, as in
    google.adk)."""
