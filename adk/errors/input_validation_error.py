"""InputValidationError: google.adk.errors.input_validation_error's class.

Runs on: process and activity side.
"""

from __future__ import annotations


class InputValidationError(ValueError):
    """Input (an id, a filename, an artifact) failed validation."""

    def __init__(self, message: str = "Invalid input.") -> None:
        self.message = message
        super().__init__(self.message)
