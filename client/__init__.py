"""The client API: start invocations, stream their events, inspect sessions.

Runs on: process side.
"""

from ._answers import AnswerRejectedError, PendingListing
from ._client import AgentClient, Invocation
from ._errors import (
    InvocationFailedError,
    InvocationInterruptedError,
    SessionBusyError,
    TemporalUnreachableError,
)

__all__ = [
    "AgentClient",
    "AnswerRejectedError",
    "Invocation",
    "InvocationFailedError",
    "InvocationInterruptedError",
    "PendingListing",
    "SessionBusyError",
    "TemporalUnreachableError",
]
