"""Payloads without their defaults: what durable-adk records in Temporal history.

Runs on: both sides (pure data, sandbox-safe).

The data converter (workflows/converter.py) serializes under the context key
COMPACT; a `Compact` model then leaves out each field whose value equals its
default, and reading the JSON back gives it again. A child workflow's input, an
activity's result, an event's actions: most of their fields are at their defaults,
and each payload is recorded in history (a child's input twice). A field's default
is therefore part of the history format: never change one (add a field instead).
Without the context (`model_dump_json()`, the session store, the agent tree's
digest) every field is written as before.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, SerializationInfo, SerializerFunctionWrapHandler, model_serializer

COMPACT = "durable_adk.compact"
"""The serialization context key that asks for compact payloads."""


class Compact(BaseModel):
    """A model written without its fields at their defaults, when COMPACT is asked."""

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        data = handler(self)
        context = info.context
        if not (isinstance(context, dict) and context.get(COMPACT)) or not isinstance(data, dict):
            return data
        for name, default in self._written_defaults().items():
            if name in data and getattr(self, name) == default:
                del data[name]
        return data

    def _written_defaults(self) -> dict[str, Any]:
        """The values this instance's payload leaves out: its class's defaults, unless
        a subclass reads other defaults back for some instances (AgentRunInput)."""
        return _defaults(type(self))


_DEFAULTS: dict[type[BaseModel], dict[str, Any]] = {}


def _defaults(cls: type[BaseModel]) -> dict[str, Any]:
    """The optional fields of a Compact class (written by their names: the converter
    does not serialize by alias) and their defaults, computed once (only compared)."""
    defaults = _DEFAULTS.get(cls)
    if defaults is None:
        defaults = _DEFAULTS[cls] = {
            name: field.get_default(call_default_factory=True, validated_data={})
            for name, field in cls.model_fields.items()
            if not field.is_required()
        }
    return defaults
