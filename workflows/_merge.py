"""Merging parallel function responses into one event (ADK's rule).

Runs on: workflow (sandbox-safe, pure).
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from adk.events.event_actions import EventActions


def deep_merge_dicts(base: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """Recursive merge: nested dicts merge, any other value from `update` wins."""
    merged = dict(base)
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge_dicts(merged[key], value)
        else:
            merged[key] = value
    return merged


def merge_actions(actions: list[EventActions]) -> EventActions:
    """The actions of parallel calls, merged in call order."""
    data: dict[str, Any] = {}
    for action in actions:
        data = deep_merge_dicts(data, action.model_dump(exclude_none=True, by_alias=True))
    return EventActions.model_validate(data)
