"""Compaction in the contents: summaries stand in for the events they cover.

Runs on: activity side (model-step activity; the compaction activity prices a
summary with it). google-adk 2.13's rules: a summary whose time range another
summary's contains is dropped (of two equal ranges the later event stays); each
summary left becomes an event of the agent at its range's end; raw events whose
time falls in any summary's range are left out; everything is ordered by time.
A function call compacted away while its answer survives is put back before it.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from typing import TYPE_CHECKING

from ...events.event import Event

if TYPE_CHECKING:
    from ...events.event_actions import EventCompaction


def _compaction_of(event: Event) -> EventCompaction | None:
    return event.actions.compaction if event.actions else None


def compaction_ranges(events: list[Event]) -> list[tuple[int, float, float]]:
    """(index, start, end) of each summary that no other summary's range contains, in
    event order. A range with a NaN bound neither contains nor is contained."""
    ranges: list[tuple[int, float, float]] = []
    comparable: list[tuple[int, float, float]] = []
    kept: set[int] = set()
    for index, event in enumerate(events):
        compaction = _compaction_of(event)
        if compaction is None or compaction.compacted_content is None:
            continue
        start, end = compaction.start_timestamp, compaction.end_timestamp
        if start is None or end is None:
            continue
        ranges.append((index, start, end))
        if math.isnan(start) or math.isnan(end):
            kept.add(index)
        else:
            comparable.append((index, start, end))
    # by start, then widest first, then latest first: a container comes before what
    # it contains, so one running maximum of the ends decides
    comparable.sort(key=lambda item: (item[1], -item[2], -item[0]))
    furthest: float | None = None
    for index, _, end in comparable:
        if furthest is None or end > furthest:
            kept.add(index)
            furthest = end
    return [item for item in ranges if item[0] in kept]


def process_compaction_events(events: list[Event], agent_name: str = "") -> list[Event]:
    """The events with each kept summary in place of the raw events it covers."""
    ranges = compaction_ranges(events)
    kept = {index for index, _, _ in ranges}
    coverage: list[tuple[float, float]] = []  # the union of the kept ranges
    for start, end in sorted((start, end) for _, start, end in ranges if start <= end):
        if coverage and start <= coverage[-1][1]:
            coverage[-1] = (coverage[-1][0], max(coverage[-1][1], end))
        else:
            coverage.append((start, end))
    starts = [start for start, _ in coverage]

    def covered(timestamp: float) -> bool:
        at = bisect_right(starts, timestamp) - 1
        return at >= 0 and timestamp <= coverage[at][1]

    items: list[tuple[float, int, Event]] = []
    for index, event in enumerate(events):
        compaction = _compaction_of(event)
        if compaction is None:
            if not covered(event.timestamp):
                items.append((event.timestamp, index, event))
            continue
        if index not in kept or compaction.compacted_content is None:
            continue
        summary = Event(
            id=event.id,
            timestamp=compaction.end_timestamp,
            author=agent_name or "model",
            content=compaction.compacted_content,
            branch=event.branch,
            isolation_scope=event.isolation_scope,
            invocation_id=event.invocation_id,
            actions=event.actions,
        )
        items.append((compaction.end_timestamp, index, summary))
    items.sort(key=lambda item: (item[0], item[1]))
    return [event for _, _, event in items]


def recover_compacted_function_calls(events: list[Event], source: list[Event]) -> list[Event]:
    """`events` (compacted, the same objects as in `source`) with each call event whose
    answer survived put back before that answer, with its other answers that were
    compacted away. An answer belongs to the latest call with its id before it."""
    if not any(event.get_function_responses() for event in events):
        return events
    present = {id(event) for event in events}
    latest_call: dict[str, Event] = {}
    call_of_answer: dict[tuple[int, str], Event] = {}
    answer_of_call: dict[tuple[int, str], Event] = {}
    answered_in_place: set[tuple[int, str]] = set()
    for event in source:
        for call in event.get_function_calls():
            if call.id:
                latest_call[call.id] = event
        for response in event.get_function_responses():
            call_event = latest_call.get(response.id or "")
            if not response.id or call_event is None:
                continue
            call_of_answer[id(event), response.id] = call_event
            key = (id(call_event), response.id)
            if id(event) in present:
                answered_in_place.add(key)
            earlier = answer_of_call.get(key)
            if earlier is None or event.timestamp >= earlier.timestamp:
                answer_of_call[key] = event  # the latest answer of this call
    result: list[Event] = []
    restored_calls: set[int] = set()
    restored_answers: set[int] = set()
    for event in events:
        for response in event.get_function_responses():
            call_event = call_of_answer.get((id(event), response.id or ""))
            if (
                not response.id
                or call_event is None
                or id(call_event) in present
                or id(call_event) in restored_calls
            ):
                continue
            result.append(call_event)
            restored_calls.add(id(call_event))
            for sibling in call_event.get_function_calls():
                key = (id(call_event), sibling.id or "")
                if not sibling.id or key in answered_in_place:
                    continue
                answer = answer_of_call.get(key)
                if answer is not None and id(answer) not in restored_answers:
                    result.append(answer)
                    restored_answers.add(id(answer))
        result.append(event)
    return result if restored_calls else events
