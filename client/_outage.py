"""Asking Temporal again through a short outage, and telling the user once.

Runs on: process side (AgentClient, the CLI, the Runner).

Every call a client makes to an invocation (start, attach, status, answers, the
result long-poll) goes through `KeepTrying.call`: on UNAVAILABLE (and the like)
it waits with backoff and asks again, calls `on_lost` once after ~10 s without
contact, and raises TemporalUnreachableError after `give_up_after` seconds. Any
other error (a refusal, NOT_FOUND, a failed update) is raised at once: retrying
cannot change it. The SDK itself retries a call for about 10 s before raising.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from temporalio.client import WorkflowUpdateRPCTimeoutOrCancelledError
from temporalio.service import RPCError, RPCStatusCode

from ._errors import TemporalUnreachableError

logger = logging.getLogger(__name__)

T = TypeVar("T")

LOST_AFTER = 8.0
"""Seconds without contact with Temporal before the user is told (once). Checked when
a call fails, and the SDK's own retries make the first failure come ~10 s after the
contact was lost: so the user hears it then."""
SDK_RETRIES = 10.0
"""The SDK retries an unreachable call for about this long before raising (seconds)."""
RETRY_FIRST = 0.5
"""First pause before asking Temporal again after losing contact; it doubles up to 5 s."""
LONG_POLL = 15.0
"""A call that failed after this long was in contact until then (a long-poll)."""


def no_contact(error: BaseException) -> bool:
    """Whether the server could not be reached (worth asking again), not a refusal."""
    if isinstance(error, WorkflowUpdateRPCTimeoutOrCancelledError):
        # the SDK's wrapper of a timed-out update call; a cancelled task is no outage
        return isinstance(error.__cause__, RPCError) and no_contact(error.__cause__)
    if not isinstance(error, RPCError):
        return False
    if error.status in (RPCStatusCode.UNAVAILABLE, RPCStatusCode.DEADLINE_EXCEEDED):
        return True
    return "connect" in error.message.lower() or "transport" in error.message.lower()


class Contact:
    """One call's record of lost contact: since when, whether the user was told."""

    def __init__(self, keep: KeepTrying, workflow_id: str, on_lost: Callable[[], None]) -> None:
        self.keep = keep
        self.workflow_id = workflow_id
        self.on_lost = on_lost
        self.lost_since: float | None = None
        self.told = False
        self.pause = RETRY_FIRST

    def failed(self, error: BaseException, asked: float) -> float:
        """After a call that could not reach Temporal: the pause before asking again;
        raises TemporalUnreachableError once `give_up_after` has passed."""
        now = asyncio.get_running_loop().time()
        if now - asked > LONG_POLL:  # it polled a while before failing: in contact till now
            self.lost_since, self.told, self.pause = None, False, RETRY_FIRST
        if self.lost_since is None:  # no answer since the call began, or the SDK's retries
            self.lost_since = max(asked, now - SDK_RETRIES)
        lost_for = now - self.lost_since
        if not self.told and lost_for >= min(LOST_AFTER, self.keep.give_up_after):
            self.told = True
            self.on_lost()
        if lost_for >= self.keep.give_up_after:
            raise TemporalUnreachableError(self.workflow_id, lost_for, error) from error
        pause = self.pause
        self.pause = min(self.pause * 2, 5.0)
        return pause


@dataclass
class KeepTrying:
    """How a client waits through outages (see the module docstring)."""

    give_up_after: float = 300.0
    on_lost: Callable[[str], None] | None = None
    """Called with the workflow id once contact is lost for ~10 s (default: a warning)."""

    def contact(self, workflow_id: str, on_lost: Callable[[], None] | None = None) -> Contact:
        return Contact(self, workflow_id, on_lost or (lambda: self._tell(workflow_id)))

    def _tell(self, workflow_id: str) -> None:
        if self.on_lost is not None:
            self.on_lost(workflow_id)
        else:
            logger.warning("Lost contact with Temporal; still trying (workflow %s)", workflow_id)

    async def call(
        self,
        workflow_id: str,
        call: Callable[[bool], Awaitable[T]],
        on_lost: Callable[[], None] | None = None,
    ) -> T:
        """`call(retried)` until it gets through; `retried` is True after a failed
        attempt, which may have reached the server before its reply was lost."""
        contact = self.contact(workflow_id, on_lost)
        loop = asyncio.get_running_loop()
        retried = False
        while True:
            asked = loop.time()
            try:
                return await call(retried)
            except (RPCError, WorkflowUpdateRPCTimeoutOrCancelledError) as error:
                if not no_contact(error):
                    raise
                await asyncio.sleep(contact.failed(error, asked))
                retried = True
