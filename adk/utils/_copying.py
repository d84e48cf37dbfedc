"""deep_copy: a deep copy of pydantic model trees of JSON-like values, about twice as
fast as `copy.deepcopy`.

Runs on: activity side (request building copies every content it sends).

`copy.deepcopy` of a google-genai Content goes through pydantic's `__deepcopy__`
and the memo for every field, most of them None: about 20 µs for a one-part
content. A long session's request copies thousands of them each model step.
This copy builds the same objects (the instance dict, the set fields, extra and
private values) and skips the memo: the trees it copies hold no shared or cyclic
references (they are decoded from JSON). Values of other types go to deepcopy.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from pydantic import BaseModel

T = TypeVar("T")

_ATOMIC = frozenset({str, int, float, bool, bytes, type(None)})


def deep_copy(value: T) -> T:
    """A deep copy of `value` (models, lists, dicts and scalars; anything else deepcopied)."""
    return _copy(value)  # type: ignore[no-any-return]


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is list:
        return [_copy(item) for item in value]
    if kind is dict:
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, BaseModel):
        new = object.__new__(kind)
        fields = {k: v if type(v) in _ATOMIC else _copy(v) for k, v in value.__dict__.items()}
        extra, private = value.__pydantic_extra__, value.__pydantic_private__
        object.__setattr__(new, "__dict__", fields)
        object.__setattr__(new, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        object.__setattr__(new, "__pydantic_extra__", None if extra is None else _copy(extra))
        object.__setattr__(
            new, "__pydantic_private__", None if private is None else copy.deepcopy(private)
        )
        return new
    if isinstance(value, str | int | float | bytes):  # enums, str subclasses: immutable
        return value
    return copy.deepcopy(value)
