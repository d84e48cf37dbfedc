"""Comparing two sides' documents: ids normalised, a unified diff, the known gaps.

Runs on: process side (the tests' process).
"""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

_ALWAYS = object()

GAPS: dict[str, tuple[str, str, Any]] = {
    # name: (where: "event" | "request", field, strip only this value or _ALWAYS)
}
"""Differences every case shows today, each checked by its own test (test_gaps.py).

The case tests compare without them, so a case fails on what is its own; the
gap's test fails (XPASS) once ours matches, and the gap is removed here.
"""


def _items(document: Any, where: str) -> list[dict[str, Any]]:
    if where == "request":
        return [r for requests in document.get("requests", {}).values() for r in requests]
    events = [e for turn in document.get("turns", []) for e in turn["events"]]
    stored = document.get("session", {}).get("events", [])
    return events + [e for e in stored if "same_as_yielded" not in e]


def without_gaps(document: Any, gaps: list[str]) -> Any:
    """A copy of the document without the named gaps' fields."""
    document = json.loads(json.dumps(document))
    for name in gaps:
        where, field, value = GAPS[name]
        for item in _items(document, where):
            if field in item and (value is _ALWAYS or item[field] == value):
                del item[field]
    return document


def gap_values(document: Any, name: str) -> list[Any]:
    """The gap's field in every event or request of the document, in order."""
    where, field, _ = GAPS[name]
    return [item.get(field) for item in _items(document, where)]


def normalise(document: Any) -> str:
    """Sorted JSON with every UUID replaced by `<uuid N>` in order of first appearance.

    Only the UUID itself: prefixes such as `adk-` or `e-` are kept, so an id of
    another shape shows as a difference.
    """
    text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False)
    seen: dict[str, str] = {}

    def placeholder(match: re.Match[str]) -> str:
        return seen.setdefault(match.group(0), f"<uuid {len(seen) + 1}>")

    return _UUID.sub(placeholder, text)


def difference(reference: Any, ours: Any) -> str:
    """A unified diff of the two normalised documents; empty when they agree."""
    lines = difflib.unified_diff(
        normalise(reference).splitlines(),
        normalise(ours).splitlines(),
        "google-adk 2.13",
        "ours",
        n=4,
        lineterm="",
    )
    return "\n".join(lines)


def assert_same(reference: Any, ours: Any, *, ignore_gaps: bool = True) -> None:
    """Fail with a unified diff unless both sides agree (the GAPS aside, by default)."""
    if ignore_gaps:
        reference, ours = without_gaps(reference, list(GAPS)), without_gaps(ours, list(GAPS))
    diff = difference(reference, ours)
    assert not diff, "google-adk 2.13 and ours differ:\n" + diff
