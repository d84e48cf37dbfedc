"""The data converter every client and worker uses: pydantic JSON, None fields omitted.

Runs on: both sides (no I/O).

A payload that does not decode fails what reads it with a non-retryable
ApplicationError (PayloadDecodeError) instead of the SDK's RuntimeError: in a
workflow that RuntimeError fails the workflow *task*, which Temporal retries every
10 s forever; an ApplicationError fails the invocation at once, saying why.

Why exclude_none and not exclude_unset: unset-tracking drops fields that were
mutated in place (a ToolContext writes into `actions.state_delta`), while
exclude_none only drops model fields that are None, and keeps None values
inside dicts (a state_delta of {"key": None} deletes the key). Our own contracts go
further: a field at its default is left out too (adk/utils/_compact.py), which
halves a child workflow's input.
"""

from __future__ import annotations

from typing import Any

from temporalio.api.common.v1 import Payload
from temporalio.contrib.pydantic import PydanticJSONPlainPayloadConverter
from temporalio.converter import (
    CompositePayloadConverter,
    DataConverter,
    DefaultPayloadConverter,
    JSONPlainPayloadConverter,
)
from temporalio.exceptions import ApplicationError

from adk.utils._compact import COMPACT

_CONTEXT = {COMPACT: True}
"""Contracts (workflows/contracts.py `Compact`) leave out their fields at their defaults."""


class _CompactJSONConverter(PydanticJSONPlainPayloadConverter):
    def to_payload(self, value: Any) -> Payload | None:
        return Payload(
            metadata={"encoding": self.encoding.encode()},
            data=self._schema_serializer.to_json(value, exclude_none=True, context=_CONTEXT),
        )

    def from_payload(self, payload: Payload, type_hint: type | None = None) -> Any:
        try:
            return super().from_payload(payload, type_hint)
        except Exception as error:
            name = getattr(type_hint, "__name__", None) or str(type_hint or "a value")
            raise ApplicationError(
                f"Cannot decode {name} from its payload: {error}. This is a bug in"
                " durable-adk or a worker running other code: please report it.",
                type="PayloadDecodeError",
                non_retryable=True,
            ) from None


_JSON = _CompactJSONConverter()
"""One instance for every converter: its TypeAdapter cache is shared, and the SDK
constructs payload converters often (per serialization context), so that stays cheap."""


_CONVERTERS = tuple(
    _JSON if isinstance(converter, JSONPlainPayloadConverter) else converter
    for converter in DefaultPayloadConverter.default_encoding_payload_converters
)


class _CompactPydanticPayloadConverter(CompositePayloadConverter):
    def __init__(self) -> None:
        super().__init__(*_CONVERTERS)  # (built about 40 times per invocation)


data_converter = DataConverter(payload_converter_class=_CompactPydanticPayloadConverter)
