"""State: a session's committed values plus the delta an event will carry.

Runs on: activity side (tools and callbacks write state through it).

A write into a dict or list read from the state (`state["items"].append(x)`)
changes the stored object without assigning its key; as in google-adk 2.13 it is
recorded too: a read hands out the container and keeps a copy, and
`record_nested_writes` (run when the context's actions are read) puts every
container that no longer equals its copy into the delta.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pydantic_core

from .._unimplemented import not_implemented


class StateSchemaError(TypeError):
    """A state write that breaks a declared state schema (google.adk's class; state
    schemas belong to the Workflow node API, not implemented here)."""


class State:
    """A dict-like view: reads see value+delta, writes go to both (delta is recorded)."""

    APP_PREFIX = "app:"
    USER_PREFIX = "user:"
    TEMP_PREFIX = "temp:"

    def __init__(self, value: dict[str, Any], delta: dict[str, Any], schema: Any = None) -> None:
        if schema is not None:  # google.adk 2.13 validates writes against it
            raise not_implemented("State(schema=...)", "state schemas")
        self._value = value
        self._delta = delta
        self._handed_out: dict[str, tuple[Any, Any]] = {}
        """key -> (the container a read returned, a copy taken then)."""

    def __getitem__(self, key: str) -> Any:
        value = self._delta[key] if key in self._delta else self._value[key]
        if isinstance(value, (dict, list)) and key not in self._handed_out:
            self._watch(key, value)
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        self._value[key] = value
        self._delta[key] = value
        self._handed_out.pop(key, None)

    def _watch(self, key: str, value: Any) -> None:
        try:
            snapshot = copy.deepcopy(value)
            if value != snapshot:  # a copy that never equals it would record every read
                return
        except Exception:  # not copyable or comparable: not tracked
            return
        self._handed_out[key] = (value, snapshot)

    def record_nested_writes(self) -> None:
        """Put each container a read handed out that has changed since into the delta
        (a container with no equal JSON form cannot be stored, so it is left out)."""
        for key, (handed_out, snapshot) in list(self._handed_out.items()):
            current = self._delta.get(key, self._value.get(key))
            if current is not handed_out:  # reassigned since (or deleted): the write wins
                del self._handed_out[key]
                continue
            try:
                changed = bool(current != snapshot)
            except Exception:
                changed = True
            if not changed:
                continue
            if not _equals_its_json_form(current):
                del self._handed_out[key]
                continue
            self._value[key] = current
            self._delta[key] = current
            self._watch(key, current)

    def __contains__(self, key: object) -> bool:
        return key in self._value or key in self._delta

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())

    def __repr__(self) -> str:
        return f"State({self.to_dict()!r})"

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, delta: dict[str, Any]) -> None:
        self._value.update(delta)
        self._delta.update(delta)
        for key in delta:
            self._handed_out.pop(key, None)

    def has_delta(self) -> bool:
        self.record_nested_writes()
        return bool(self._delta)

    def to_dict(self) -> dict[str, Any]:
        return {**self._value, **self._delta}


def _equals_its_json_form(value: Any) -> bool:
    try:
        return bool(pydantic_core.to_jsonable_python(value, inf_nan_mode="null") == value)
    except Exception:
        return False
