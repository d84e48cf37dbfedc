"""SessionNotFoundError: google.adk.errors.session_not_found_error's class.

Runs on: process and activity side. A ValueError, as in google.adk (code that
caught the ValueError raised before this class existed still catches it).
"""

from __future__ import annotations


class SessionNotFoundError(ValueError):
    """A session cannot be found."""

    def __init__(self, message: str = "Session not found.") -> None:
        super().__init__(message)
