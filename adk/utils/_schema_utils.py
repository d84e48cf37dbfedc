"""Schemas an agent answers with (output_schema): their forms and how an answer is checked.

Runs on: activity side (the model step builds the request and checks the final
text; the tool-call activity checks set_model_response's arguments).

google-adk 2.13 (`google.adk.utils._schema_utils`) takes every form google-genai's
`SchemaUnion` takes: a pydantic model class, a generic alias (`list[Model]`,
`list[str]`, `dict[str, int]`), another type (`str`, an Enum, `A | None`), a
JSON schema dict or a `types.Schema`. A model class's answer is stored as its
dict, a `list[Model]`'s as a list of dicts, any other form's as the parsed JSON,
unchecked against the schema.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, get_args, get_origin

from google.genai import types
from pydantic import BaseModel, TypeAdapter

SchemaType = types.SchemaUnion
"""An output_schema: whatever google-genai accepts as a response schema."""

# an optional leading language tag (the "json" of ```json): anchored, linear time
_FENCE_LANG_RE = re.compile(r"^[A-Za-z0-9_]*[ \t]*\n?")


def _unannotated(schema: Any) -> Any:
    return get_args(schema)[0] if get_origin(schema) is Annotated else schema


def is_basemodel_schema(schema: Any) -> bool:
    """A pydantic model class (possibly Annotated)."""
    schema = _unannotated(schema)
    return isinstance(schema, type) and issubclass(schema, BaseModel)


def get_list_inner_type(schema: Any) -> type[BaseModel] | None:
    """The model class of a `list[Model]` schema (either possibly Annotated), else None."""
    schema = _unannotated(schema)
    if get_origin(schema) is not list or not get_args(schema):
        return None
    inner = _unannotated(get_args(schema)[0])
    return inner if isinstance(inner, type) and issubclass(inner, BaseModel) else None


def is_list_of_basemodel(schema: Any) -> bool:
    return get_list_inner_type(schema) is not None


def schema_to_json_schema(schema: Any) -> dict[str, Any]:
    """The schema as a JSON schema dict (a dict is one already)."""
    if isinstance(schema, dict):
        return schema
    return TypeAdapter(schema).json_schema()  # type: ignore[no-any-return]


def _strip_json_code_fence(json_text: str) -> str:
    """The JSON inside a ``` fence wrapping the whole text (else the text as it is).

    String operations only: a regex over the whole text could backtrack
    catastrophically on model output.
    """
    stripped = json_text.strip()
    if len(stripped) >= 6 and stripped.startswith("```") and stripped.endswith("```"):
        inner = _FENCE_LANG_RE.sub("", stripped[3:-3], count=1)
        return inner.strip()
    return json_text


def safe_json_loads(text: str | bytes | bytearray, context: str | None = None) -> Any:
    """json.loads raising ValueError (google-adk 2.13's message) on malformed input."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        suffix = f" in {context}" if context else ""
        raise ValueError(f"Invalid JSON{suffix}: {exc}") from exc


def validate_schema(schema: Any, json_text: str) -> Any:
    """The answer `json_text` (a ```json fence allowed) as the agent stores it.

    A model class: its dict (pydantic's ValidationError if it does not fit); a
    `list[Model]`: a list of dicts; any other form: the parsed JSON (ValueError
    when it is not JSON), not checked against the schema.
    """
    json_text = _strip_json_code_fence(json_text)
    if is_basemodel_schema(schema):
        model: type[BaseModel] = _unannotated(schema)
        return model.model_validate_json(json_text).model_dump(exclude_none=True)
    if is_list_of_basemodel(schema):
        items: list[Any] = TypeAdapter(schema).validate_json(json_text)
        return [item.model_dump(exclude_none=True) for item in items]
    return safe_json_loads(json_text, context="schema value")
