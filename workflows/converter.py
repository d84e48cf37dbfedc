"""The data converter every client and worker uses: pydantic JSON, None fields omitted.

Runs on: both sides (no I/O).

Why exclude_none and not exclude_unset: unset-tracking drops fields that were
mutated in place (a ToolContext writes into `actions.state_delta`), while
exclude_none only drops model fields that are None, and keeps None values
inside dicts (a state_delta of {"key": None} deletes the key).
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


class _CompactJSONConverter(PydanticJSONPlainPayloadConverter):
    def to_payload(self, value: Any) -> Payload | None:
        return Payload(
            metadata={"encoding": self.encoding.encode()},
            data=self._schema_serializer.to_json(value, exclude_none=True),
        )


_JSON = _CompactJSONConverter()
"""One instance for every converter: its TypeAdapter cache is shared, and the SDK
constructs payload converters often (per serialization context), so that stays cheap."""


class _CompactPydanticPayloadConverter(CompositePayloadConverter):
    def __init__(self) -> None:
        super().__init__(
            *(
                _JSON if isinstance(converter, JSONPlainPayloadConverter) else converter
                for converter in DefaultPayloadConverter.default_encoding_payload_converters
            )
        )


data_converter = DataConverter(payload_converter_class=_CompactPydanticPayloadConverter)
