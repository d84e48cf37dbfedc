"""The client stream's use of events handed over by appends in its own process.

Runs on: test process only.
"""

from __future__ import annotations

from typing import Any

from google.genai import types

from adk.events import Event
from adk.sessions import Appended
from client._stream import in_order as _in_order

INVOCATION = "inv"


def _event(text: str, invocation_id: str = "inv") -> Event:
    return Event(
        author="agent",
        invocation_id=invocation_id,
        content=types.Content(role="model", parts=[types.Part(text=text)]),
    )


def _texts(batch: Any) -> list[tuple[int, str]]:
    return [(seq, event.content.parts[0].text) for seq, event in batch]


def test_events_that_follow_what_was_read_are_used_in_order_as_copies() -> None:
    one, two = _event("one"), _event("two")
    handed = [Appended(7, 9, two), Appended(3, 7, one)]  # notified out of order
    batch = _in_order(handed, 3, INVOCATION)
    assert batch is not None and _texts(batch) == [(7, "one"), (9, "two")]
    assert batch[0][1] == one and batch[0][1] is not one  # the appender keeps its object


def test_events_already_read_are_skipped() -> None:
    batch = _in_order([Appended(3, 7, _event("one")), Appended(7, 9, _event("two"))], 7, INVOCATION)
    assert batch is not None and _texts(batch) == [(9, "two")]


def test_a_gap_another_invocation_or_nothing_handed_means_reading_the_store() -> None:
    # seq 8 was written elsewhere (another process): only a read sees it
    assert _in_order([Appended(8, 9, _event("two"))], 7, INVOCATION) is None
    # another invocation's event: a read applies the invocation filter
    assert _in_order([Appended(7, 9, _event("x", invocation_id="other"))], 7, INVOCATION) is None
    # woken by a change with no place (a replaced event), or by nothing
    assert _in_order([], 7, INVOCATION) is None
