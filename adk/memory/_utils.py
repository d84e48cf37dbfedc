"""Helpers of the memory services.

Runs on: activity side.
"""

from __future__ import annotations

from datetime import datetime


def format_timestamp(timestamp: float) -> str:
    """A memory's time as the model reads it: local ISO 8601 (as google-adk 2.13)."""
    return datetime.fromtimestamp(timestamp).isoformat()
