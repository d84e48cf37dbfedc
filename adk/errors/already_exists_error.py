"""AlreadyExistsError: google.adk.errors.already_exists_error's class.

Runs on: process and activity side.
"""

from __future__ import annotations


class AlreadyExistsError(Exception):
    """An entity (e.g. a session with the requested id) already exists."""

    def __init__(self, message: str = "The resource already exists.") -> None:
        self.message = message
        super().__init__(self.message)
