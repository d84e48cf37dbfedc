"""When a client stream reads the store, and what it takes without reading.

Runs on: process side (AgentClient streams).

A stream sleeps until something wakes it (`Wakes`): the invocation's histories
(client/_follow.py: an activity ended, the root's status may have changed), the
store's notification of an append made anywhere (PostgreSQL), an append in this
process (the session watch, which hands the event over), or the invocation's end.
`Reads.plan` then decides whether the store must be read.
"""

from __future__ import annotations

import asyncio

from adk.events.event import Event
from adk.sessions import Appended, SessionWatch
from adk.sessions._watch import Listening


class Wakes:
    """What woke a stream since it last looked: "store", "status", "task" (from the
    histories, client/_follow.py), "local" (an append in this process), "notified" (one
    elsewhere, from the store: `seq`), "end"."""

    def __init__(self) -> None:
        self._kinds: set[str] = set()
        self._woken: asyncio.Future[None] | None = None
        self.seq = 0
        """The highest seq the store notified (`appends_elsewhere`)."""

    def notified(self, seq: int) -> None:
        self.seq = max(self.seq, seq)
        self.wake("notified")

    def wake(self, kind: str) -> None:
        self._kinds.add(kind)
        if self._woken is not None and not self._woken.done():
            self._woken.set_result(None)

    async def next(self, recorded: SessionWatch) -> set[str]:
        """Until something wakes the stream; what did, forgotten here. Callbacks on one
        future rather than a task per wait: a stream waits many times per invocation."""
        if not self._kinds:
            self._woken = asyncio.get_running_loop().create_future()
            stop_watching = recorded.on_change(lambda: self.wake("local"))
            try:
                await self._woken
            finally:
                stop_watching()
                self._woken = None
        kinds, self._kinds = self._kinds, set()
        return kinds


class Reads:
    """Whether a stream must read the store after a wake-up (see `plan`)."""

    def __init__(
        self, invocation_id: str, recorded: SessionWatch, listening: Listening, wakes: Wakes
    ) -> None:
        self.invocation_id = invocation_id
        self.recorded = recorded
        self.listening = listening
        self.wakes = wakes
        self.known = 0
        """The highest seq the store had notified when the stream last read it."""
        self.handed = False
        """The watch handed events over since the last activity end."""

    def plan(
        self, woken: set[str], after_seq: int, done: bool
    ) -> tuple[list[tuple[int, Event]], bool]:
        """(the events appended in this process that follow `after_seq`, whether to
        read the store instead). Read at the first wake-up and at the end; when the
        handed events do not chain; after an activity ended that handed nothing over
        (it appended elsewhere), unless the store tells of each append; and when the
        store told of an append the stream does not have and this process is not
        making (one under way here: its watch hands the event over next)."""
        local = self.recorded.is_set  # appended in this process since the last look
        appended = self.recorded.take()
        read = bool(woken & {"first", "end"}) or done
        batch = None
        if local and not read:
            batch = in_order(appended, after_seq, self.invocation_id)
            read = batch is None
            self.handed = self.handed or batch is not None
        if "store" in woken and not self.listening.alive:
            read, self.handed = read or not self.handed, False
        upto = batch[-1][0] if batch else after_seq
        notified = self.wakes.seq > max(self.known, upto) and not self.recorded.appending
        if read or notified:
            self.known = self.wakes.seq
            return [], True
        return batch or [], False


def in_order(
    appended: list[Appended], after_seq: int, invocation_id: str
) -> list[tuple[int, Event]] | None:
    """The invocation's events appended in this process that directly follow
    `after_seq` (copies: the appender keeps its own object); None when they do not
    chain (an event written elsewhere, another invocation's, a replaced one):
    then the stream reads the store."""
    if not appended:
        return None
    batch: list[tuple[int, Event]] = []
    last = after_seq
    for item in sorted(appended, key=lambda a: a.seq):
        if item.seq <= last:
            continue  # already read
        if item.after_seq != last or item.event.invocation_id != invocation_id:
            return None
        # a copy as a read would give (faster than a deep copy, measured)
        copy = Event.model_validate_json(
            item.event.model_dump_json(exclude_none=True, by_alias=True)
        )
        batch.append((item.seq, copy))
        last = item.seq
    return batch
