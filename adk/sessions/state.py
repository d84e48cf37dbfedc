"""State: a session's committed values plus the delta an event will carry.

Runs on: activity side (tools and callbacks write state through it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .._unimplemented import not_implemented


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

    def __getitem__(self, key: str) -> Any:
        if key in self._delta:
            return self._delta[key]
        return self._value[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._value[key] = value
        self._delta[key] = value

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

    def has_delta(self) -> bool:
        return bool(self._delta)

    def to_dict(self) -> dict[str, Any]:
        return {**self._value, **self._delta}
