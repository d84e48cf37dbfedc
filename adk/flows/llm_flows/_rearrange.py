"""Function-call pairing: each function response right after its call, and no orphans.

Runs on: activity side (model-step activity).

Follows google-adk 2.13. Models expect a function call to be answered in the
next content. In order: responses with no earlier call are dropped; a late
answer in the last event (a long-running call) is moved back to its call;
every answer in history is moved next to its call (the call's latest answer
wins, and model text replies between two updates of one call in one
invocation are dropped); calls that never got an answer are dropped unless
they are long-running.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from google.genai import types

    from ...events.event import Event


def merge_function_response_events(response_events: list[Event]) -> Event:
    """One event with the parts of all: a later response replaces one with the same id.

    Other parts are appended. A missing id is a key like any other (ADK's
    documented limit for parallel calls of one name).
    """
    if not response_events:
        raise ValueError("At least one function_response event is required.")
    merged = response_events[0].model_copy(deep=True)
    if merged.content is None or not merged.content.parts:
        raise ValueError("There should be at least one function_response part.")
    parts = merged.content.parts
    position: dict[str | None, int] = {
        part.function_response.id: index
        for index, part in enumerate(parts)
        if part.function_response
    }
    for event in response_events[1:]:
        if event.content is None or not event.content.parts:
            raise ValueError("There should be at least one function_response part.")
        for part in event.content.parts:
            response = part.function_response
            if response and response.id in position:
                parts[position[response.id]] = part
                continue
            parts.append(part)
            if response:
                position[response.id] = len(parts) - 1
    return merged


def drop_orphaned_function_responses(events: list[Event]) -> list[Event]:
    """Drop response parts with no earlier call (by id; by name when the response has none)."""
    seen_ids: set[str] = set()
    seen_idless_names: set[str] = set()
    result: list[Event] = []
    for event in events:
        parts = event.content.parts if event.content else None
        if parts and event.get_function_responses():
            kept = [part for part in parts if _answers_seen(part, seen_ids, seen_idless_names)]
            if kept:
                result.append(_with_parts(event, parts, kept))
        else:
            result.append(event)
        for call in event.get_function_calls():
            if call.id:
                seen_ids.add(call.id)
            elif call.name:
                seen_idless_names.add(call.name)
    return result


def _answers_seen(part: types.Part, seen_ids: set[str], seen_idless_names: set[str]) -> bool:
    response = part.function_response
    if not response:
        return True
    if response.id:
        return response.id in seen_ids
    return bool(response.name) and response.name in seen_idless_names


def drop_orphaned_function_calls(events: list[Event]) -> list[Event]:
    """Drop call parts (with an id) never answered and not long-running; empty events go."""
    answered = {r.id for event in events for r in event.get_function_responses() if r.id}
    long_running = {i for event in events for i in event.long_running_tool_ids or ()}
    result: list[Event] = []
    for event in events:
        parts = event.content.parts if event.content else None
        if not parts or not event.get_function_calls():
            result.append(event)
            continue
        kept = [
            part
            for part in parts
            if not (
                part.function_call
                and part.function_call.id
                and part.function_call.id not in answered
                and part.function_call.id not in long_running
            )
        ]
        if kept:
            result.append(_with_parts(event, parts, kept))
    return result


def _owning_call_index(history: list[Event], response: types.FunctionResponse) -> int:
    """The latest event in `history` holding the call `response` answers (-1: none)."""
    for index in range(len(history) - 1, -1, -1):
        for call in history[index].get_function_calls():
            if response.id and call.id == response.id:
                return index
            if not response.id and not call.id and response.name and call.name == response.name:
                return index
    return -1


def rearrange_latest_function_response(events: list[Event]) -> list[Event]:
    """Move the answers in the last event back to the calls they answer.

    Orphaned responses are dropped first. The history is cut after the latest
    answered call event; each answered call event is followed by its answers
    given since then (merged with the last event's); answers given in between
    are taken out of where they were.
    """
    events = drop_orphaned_function_responses(events)
    if len(events) < 2 or not events[-1].get_function_responses():
        return events
    trailing = events[-1]
    parts = trailing.content.parts if trailing.content else None
    if not parts:
        return events
    history = events[:-1]
    by_call: dict[int, list[types.Part]] = {}
    other_parts: list[types.Part] = []
    for part in parts:
        if part.function_response:
            owner = _owning_call_index(history, part.function_response)
            if owner != -1:
                by_call.setdefault(owner, []).append(part)
        else:
            other_parts.append(part)
    if not by_call:
        return events
    latest = max(by_call)
    by_call[latest].extend(other_parts)
    if latest == len(events) - 2 and len(by_call) == 1:
        return events

    result: list[Event] = []
    for index in range(latest + 1):
        event = events[index]
        event_parts = event.content.parts if event.content else None
        if event_parts and event.get_function_responses():
            kept = [
                part
                for part in event_parts
                if not part.function_response
                or _owning_call_index(events[:index], part.function_response) not in by_call
            ]
            if not any(part.function_response or part.function_call for part in kept):
                continue
            event = _with_parts(event, event_parts, kept)
        result.append(event)
        if index in by_call:
            result.append(_answers_for_call(events, index, by_call[index]))
    return result


def _answers_for_call(
    events: list[Event], call_index: int, latest_parts: list[types.Part]
) -> Event:
    """The answers to the calls of `events[call_index]` since then, the last event's last."""
    trailing = events[-1].model_copy(deep=True)
    if trailing.content:
        trailing.content.parts = latest_parts
    answers: list[Event] = []
    for index in range(call_index + 1, len(events) - 1):
        event = events[index]
        event_parts = event.content.parts if event.content else None
        if not event_parts or not event.get_function_responses():
            continue
        holds_calls = bool(event.get_function_calls())
        matched = [
            part
            for part in event_parts
            if (
                _owning_call_index(events[:index], part.function_response) == call_index
                if part.function_response
                else not holds_calls
            )
        ]
        if any(part.function_response for part in matched):
            answers.append(_with_parts(event, event_parts, matched))
    answers.append(trailing)
    return merge_function_response_events(answers) if len(answers) > 1 else answers[0]


def rearrange_async_function_responses(events: list[Event]) -> list[Event]:
    """Emit each call event followed by the (merged) latest answers to its calls.

    An id may be reused in a session: a response belongs to the newest call
    with its id before it (or the first such call when none precedes it).
    Response events are removed from where they are; an event holding both
    calls and responses counts as a response event.
    """
    call_indices: dict[str | None, list[int]] = {}
    for index, event in enumerate(events):
        if event.get_function_responses():
            continue
        for call in event.get_function_calls():
            call_indices.setdefault(call.id, []).append(index)

    answers: dict[tuple[str | None, int], list[int]] = {}
    has_responses = False
    for index, event in enumerate(events):
        for response in event.get_function_responses():
            has_responses = True
            owners = call_indices.get(response.id)
            if not owners:
                continue
            owner = owners[max(bisect_left(owners, index) - 1, 0)]
            answers.setdefault((response.id, owner), []).append(index)
    if not has_responses:
        return events

    stale = _stale_replies_between_updates(events, answers)
    result: list[Event] = []
    for index, event in enumerate(events):
        if index in stale or event.get_function_responses():
            continue
        result.append(event)
        latest = {
            answers[(call.id, index)][-1]
            for call in event.get_function_calls()
            if (call.id, index) in answers
        }
        if len(latest) == 1:
            result.append(events[next(iter(latest))])
        elif latest:
            result.append(merge_function_response_events([events[i] for i in sorted(latest)]))
    return result


def _stale_replies_between_updates(
    events: list[Event], answers: dict[tuple[str | None, int], list[int]]
) -> set[int]:
    """Model text replies between two updates of one call, by one author, in one invocation.

    Not when the earlier update asked for a confirmation or credentials.
    """
    stale: set[int] = set()
    for indices in answers.values():
        for current, following in zip(indices, indices[1:], strict=False):
            first, second = events[current], events[following]
            if first.invocation_id != second.invocation_id or first.author != second.author:
                continue
            if first.actions and (
                first.actions.requested_tool_confirmations or first.actions.requested_auth_configs
            ):
                continue
            between = range(current + 1, following)
            if between and all(
                _is_stale_text_reply(events[i], first.invocation_id) for i in between
            ):
                stale.update(between)
    return stale


def _is_stale_text_reply(event: Event, invocation_id: str) -> bool:
    return bool(
        event.invocation_id == invocation_id
        and event.author != "user"
        and event.content
        and event.content.role == "model"
        and not event.get_function_calls()
        and not (event.actions and event.actions.compaction)
        and any(part.text for part in event.content.parts or [])
    )


def _with_parts(event: Event, parts: list[types.Part], kept: list[types.Part]) -> Event:
    """`event` itself when nothing was removed, else a copy holding only `kept`."""
    if len(kept) == len(parts):
        return event
    copied = event.model_copy(deep=True)
    if copied.content:
        copied.content.parts = kept
    return copied
