"""NotFoundError: google.adk.errors.not_found_error's class.

Runs on: process and activity side.
"""

from __future__ import annotations


class NotFoundError(Exception):
    """An entity was not found."""

    def __init__(self, message: str = "The requested item was not found.") -> None:
        self.message = message
        super().__init__(self.message)
