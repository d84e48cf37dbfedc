"""ContentsMemo: a model step's contents built from the step before's, plus what is new.

Runs on: activity side (model-step activity), one memo per worker process.

Building the contents is a pass over every event of the session (filtering,
retelling other agents' turns, pairing calls with their answers) and a copy of
each content: about 0.1 ms an event, so 0.3 s a step at 3,000 events. A step of
the same agent, on the same branch of the same session, sees the events the
step before saw and a few more. The memo keeps what that step built, and builds
only the new events' contents when that gives the same request as the whole
pass would:

- the events it built from are a prefix of this step's (the same objects, which
  the session store's event cache shares, or equal ones);
- the new events touch nothing before them: every function call and answer in
  them has an id that none of the earlier events uses (an answer to an earlier
  call, a long-running call's late result, a reused id: each can move or drop
  earlier contents), and none of them rewinds or carries a transcription;
- the latest answer of the earlier step was not moved back to its call (the
  whole pass moves only the latest event's answers).

Otherwise the whole pass runs, and its result becomes the memo's. With
`DURABLE_ADK_CHECK_CONTENTS_MEMO=1` every reuse is checked against the whole
pass (the test suite sets it).

The memo's contents are shared with the requests built from it and must never
change: a request marks them shared, and hands its own copies to code we do not
own (`LlmRequest._own_contents`). They are the events' own content objects where
the model is sent them as stored (`contents.shared_contents`): the memo costs a
list of references to objects the session store's event cache holds anyway, and
a new object only where a content changes (client-side `adk-` ids stripped).
Memory is bounded: an LRU holding at most `max_contents` contents over all
entries. An entry keeps its events alive, so the default follows the event
cache's budget (`$DURABLE_ADK_EVENT_CACHE_MIB`, 64 MiB): as many contents as that
budget holds small events (about 11,000), so one setting bounds both.
"""

from __future__ import annotations

import collections
import math
import os
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...sessions._event_cache import EVENT_OVERHEAD, default_max_bytes

if TYPE_CHECKING:
    from google.genai import types

    from ...events.event import Event

_CONTENT_ESTIMATE = EVENT_OVERHEAD + 512
"""What an entry's content may keep alive: a small event (see sessions/_event_cache.py)."""
_MAX_UNSHARED = 8
"""How many events of the prefix may be equal copies rather than the same objects
(a step's own records, appended before it built its request); more and the whole
pass is cheaper than comparing."""

CHECK_ENV = "DURABLE_ADK_CHECK_CONTENTS_MEMO"

Arrange = Callable[["list[Event]"], "tuple[list[Event], bool]"]
Prepare = Callable[["list[Event]"], "list[types.Content]"]
"""The contents of arranged events, as the model is sent them (never to be changed)."""


@dataclass(frozen=True)
class _Entry:
    events: list[Event]
    contents: list[types.Content]
    ids: frozenset[str]
    latest_in_place: bool
    times: _Times | None = None
    """When the events hold a compaction summary: what a new event must come after."""


@dataclass(frozen=True)
class _Times:
    latest: float
    """The latest time among the events and the summaries' range ends."""
    covered_until: float
    """The latest end of a summary's range."""


class ContentsMemo:
    def __init__(self, max_contents: int | None = None) -> None:
        self._max = max_contents
        self._entries: collections.OrderedDict[Hashable, _Entry] = collections.OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self.reused = 0
        self.rebuilt = 0

    def contents(
        self, key: Hashable, events: list[Event], arrange: Arrange, prepare: Prepare
    ) -> list[types.Content]:
        """The contents for `events` (shared: never to be changed). `arrange` is the
        whole pass over a list of events, `prepare` their contents as sent."""
        with self._lock:
            entry = self._entries.get(key)
        suffix = _new_events(entry, events) if entry is not None else None
        if entry is not None and suffix is not None:
            in_place = True
            contents, ids = entry.contents, entry.ids
            if suffix:
                arranged, in_place = arrange(suffix)
                contents = contents + prepare(arranged)
                ids = ids | _function_ids(suffix)
            self.reused += 1
            if os.environ.get(CHECK_ENV):
                _check(contents, prepare(arrange(events)[0]))
        else:
            arranged, in_place = arrange(events)
            contents = prepare(arranged)
            ids = _function_ids(events)
            self.rebuilt += 1
        self._keep(key, _Entry(list(events), contents, ids, in_place, _times(events)))
        return contents

    @property
    def max_contents(self) -> int:
        if self._max is None:  # read when first needed: the worker's settings are in place
            self._max = default_max_bytes() // _CONTENT_ESTIMATE
        return self._max

    def _keep(self, key: Hashable, entry: _Entry) -> None:
        if len(entry.contents) > self.max_contents:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= len(old.contents)
            self._entries[key] = entry
            self._size += len(entry.contents)
            while self._size > self.max_contents:
                _, dropped = self._entries.popitem(last=False)
                self._size -= len(dropped.contents)


def _new_events(entry: _Entry, events: list[Event]) -> list[Event] | None:
    """The events after the entry's, when the entry's contents stay right for `events`."""
    if not entry.latest_in_place or len(entry.events) > len(events):
        return None
    unshared = 0
    for old, new in zip(entry.events, events, strict=False):
        if old is not new:
            unshared += 1
            if unshared > _MAX_UNSHARED or old != new:
                return None
    suffix = events[len(entry.events) :]
    if not _stands_alone(suffix, entry.ids) or not _comes_after(suffix, entry.times):
        return None
    return suffix


def _stands_alone(events: list[Event], earlier_ids: frozenset[str]) -> bool:
    """Whether the whole pass leaves the earlier events' contents as they were."""
    for event in events:
        if event.actions.rewind_before_invocation_id:
            return False
        if event.input_transcription or event.output_transcription:
            return False  # merging transcriptions looks at the event after a bare one
        if event.actions.compaction:
            return False  # it replaces earlier events
        for call in event.get_function_calls():
            if not call.id or call.id in earlier_ids:
                return False
        for response in event.get_function_responses():
            if not response.id or response.id in earlier_ids:
                return False
        if any(i in earlier_ids for i in event.long_running_tool_ids or ()):
            return False
    return True


def _times(events: list[Event]) -> _Times | None:
    ends = [c.end_timestamp for e in events if (c := e.actions.compaction) is not None]
    if not ends:
        return None
    if any(math.isnan(end) for end in ends):
        return _Times(math.inf, math.inf)  # ordered unpredictably: always the whole pass
    # (a summary's own time does not place it: its range's end does)
    times = [e.timestamp for e in events if e.actions.compaction is None]
    return _Times(max([*ends, *times]), max(ends))


def _comes_after(events: list[Event], times: _Times | None) -> bool:
    """Whether the whole pass puts `events` after the earlier ones, as they are."""
    if times is None:
        return True  # no summary: the whole pass keeps the events' order
    latest = times.latest
    for event in events:
        if event.timestamp < latest or event.timestamp <= times.covered_until:
            return False
        latest = event.timestamp
    return True


def _function_ids(events: list[Event]) -> frozenset[str]:
    ids: set[str] = set()
    for event in events:
        ids.update(call.id for call in event.get_function_calls() if call.id)
        ids.update(response.id for response in event.get_function_responses() if response.id)
        ids.update(event.long_running_tool_ids or ())
    return frozenset(ids)


def _check(reused: list[types.Content], whole: list[types.Content]) -> None:
    if reused != whole:
        index = next(
            (i for i, (a, b) in enumerate(zip(reused, whole, strict=False)) if a != b),
            min(len(reused), len(whole)),
        )
        raise AssertionError(
            f"contents memo diverged from the whole pass at content {index}:"
            f" {len(reused)} contents reused, {len(whole)} built"
        )


MEMO = ContentsMemo()
"""The worker process's memo (model steps of every session it serves)."""
