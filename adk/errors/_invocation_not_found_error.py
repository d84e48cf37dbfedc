"""InvocationNotFoundError: google.adk.errors' class (Runner.rewind_async's unknown id).

Runs on: process side.
"""

from __future__ import annotations

from .not_found_error import NotFoundError


class InvocationNotFoundError(NotFoundError, ValueError):
    """An invocation id matches no event of the session.

    A ValueError too, as in google.adk (callers that caught the ValueError rewind
    raised before this class existed still catch it).
    """

    def __init__(self, message: str = "Invocation ID not found.") -> None:
        super().__init__(message)
