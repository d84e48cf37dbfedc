"""Function-response rearrangement: puts each function response right after its call.

Runs on: activity side (model-step activity).

Follows google-adk 2.0.0. Models expect a function call to be answered in the
next content. Two steps restore that when history says otherwise:
`rearrange_latest_function_response` handles a late answer to a long-running
call (the last event), and `rearrange_async_function_responses` moves every
answer in history next to its call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...events.event import Event


def rearrange_latest_function_response(events: list[Event]) -> list[Event]:
    """If the last event answers calls of an earlier (not the previous) event, regroup.

    The history is cut after the call event, and the answers given since then
    for its calls, last one included, are merged into one response event.
    """
    if len(events) < 2:
        return events
    response_ids = {r.id for r in events[-1].get_function_responses()}
    if not response_ids:
        return events
    if any(call.id in response_ids for call in events[-2].get_function_calls()):
        return events

    call_index = -1
    call_ids: set[str | None] = set()
    for index in range(len(events) - 2, -1, -1):
        calls = events[index].get_function_calls()
        if any(call.id in response_ids for call in calls):
            call_index = index
            call_ids = {call.id for call in calls}
            break
    if call_index == -1:
        raise ValueError(f"No function call event found for function responses ids: {response_ids}")
    if not response_ids.issubset(call_ids):
        raise ValueError(
            "Last response event should only contain the responses for the"
            " function calls in the same function call event. Function call ids"
            f" found : {call_ids}, function response ids provided: {response_ids}"
        )

    answers = [
        event
        for event in events[call_index + 1 : -1]
        if any(r.id in call_ids for r in event.get_function_responses())
    ]
    answers.append(events[-1])
    return [*events[: call_index + 1], merge_function_response_events(answers)]


def rearrange_async_function_responses(events: list[Event]) -> list[Event]:
    """Emit each call event followed by the (merged) latest answers to its calls.

    Response events are removed from where they are; an answer with no call
    event is dropped. An event holding both calls and responses counts as a
    response event.
    """
    last_answer_index: dict[str | None, int] = {}
    for index, event in enumerate(events):
        for response in event.get_function_responses():
            last_answer_index[response.id] = index

    result: list[Event] = []
    for event in events:
        if event.get_function_responses():
            continue
        result.append(event)
        answer_indices = sorted(
            {
                last_answer_index[call.id]
                for call in event.get_function_calls()
                if call.id in last_answer_index
            }
        )
        if len(answer_indices) == 1:
            result.append(events[answer_indices[0]])
        elif answer_indices:
            result.append(merge_function_response_events(events[i] for i in answer_indices))
    return result


def merge_function_response_events(response_events: Iterable[Event]) -> Event:
    """One event with the parts of all: a later response replaces one with the same id."""
    ordered: Sequence[Event] = list(response_events)
    if not ordered:
        raise ValueError("At least one function_response event is required.")
    merged = ordered[0].model_copy(deep=True)
    if not merged.content or not merged.content.parts:
        raise ValueError("There should be at least one function_response part.")
    parts = merged.content.parts
    position: dict[str | None, int] = {
        part.function_response.id: index
        for index, part in enumerate(parts)
        if part.function_response
    }
    for event in ordered[1:]:
        if not event.content or not event.content.parts:
            raise ValueError("There should be at least one function_response part.")
        for part in event.content.parts:
            response = part.function_response
            if response and response.id in position:
                parts[position[response.id]] = part
            else:
                if response:
                    position[response.id] = len(parts)
                parts.append(part)
    return merged
