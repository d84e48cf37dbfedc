"""Which Google LLM backend the tools' declarations are built for, and its schema rules.

Runs on: activity side (worker process; reads the environment).

Follows google-adk 2.13: Vertex AI ("enterprise" mode, GOOGLE_GENAI_USE_ENTERPRISE
or the deprecated GOOGLE_GENAI_USE_VERTEXAI) gets response schemas in function
declarations, and `Optional[X]` schemas flattened to X with `nullable: true`
(Vertex rejects an `anyOf` without a top-level type).
"""

from __future__ import annotations

import enum
import os
import warnings
from typing import Any

_TRUTHY = ("true", "1")


class GoogleLLMVariant(enum.Enum):
    VERTEX_AI = "VERTEX_AI"
    GEMINI_API = "GEMINI_API"


def get_google_llm_variant() -> GoogleLLMVariant:
    return GoogleLLMVariant.VERTEX_AI if _enterprise_mode() else GoogleLLMVariant.GEMINI_API


def _enterprise_mode() -> bool:
    if "GOOGLE_GENAI_USE_ENTERPRISE" in os.environ:
        return os.environ["GOOGLE_GENAI_USE_ENTERPRISE"].lower() in _TRUTHY
    if "GOOGLE_GENAI_USE_VERTEXAI" in os.environ:
        warnings.warn(
            "GOOGLE_GENAI_USE_VERTEXAI is deprecated, please use"
            " GOOGLE_GENAI_USE_ENTERPRISE instead",
            DeprecationWarning,
            stacklevel=3,
        )
        return os.environ["GOOGLE_GENAI_USE_VERTEXAI"].lower() in _TRUTHY
    return False


def sanitize_json_schema_for_vertex(schema: Any) -> Any:
    """Every (sub)schema with `anyOf` [X, null] becomes X plus `nullable: true`."""
    if isinstance(schema, list):
        return [sanitize_json_schema_for_vertex(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return _flatten_optional(
        {key: sanitize_json_schema_for_vertex(value) for key, value in schema.items()}
    )


def _flatten_optional(schema: dict[str, Any]) -> dict[str, Any]:
    any_of = schema.get("anyOf")
    if not isinstance(any_of, list) or len(any_of) < 2:
        return schema
    nulls = [v for v in any_of if isinstance(v, dict) and v.get("type") == "null"]
    if len(nulls) != 1:
        return schema
    others = [v for v in any_of if v not in nulls]
    if len(others) == 1:
        flattened = dict(others[0])
        for key, value in schema.items():
            if key != "anyOf":
                flattened.setdefault(key, value)
    else:  # a true union stays a union, without its null branch
        flattened = dict(schema)
        flattened["anyOf"] = others
    flattened["nullable"] = True
    return flattened
