"""BaseEventsSummarizer: what compaction asks to turn a run of events into one summary event.

Runs on: activity side (the compaction activity, and the model step when a token
threshold is set). Mirrors google.adk.apps.base_events_summarizer.
"""

from __future__ import annotations

import abc

from ..events.event import Event


class BaseEventsSummarizer(abc.ABC):
    """Compacts a list of events into a single event."""

    @abc.abstractmethod
    async def maybe_summarize_events(self, *, events: list[Event]) -> Event | None:
        """The compaction event standing for `events` (its `actions.compaction` names
        their time range and holds the summary), or None when nothing was compacted."""
        raise NotImplementedError()
