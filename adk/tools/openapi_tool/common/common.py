"""A generated tool's parameters and their Python types and docs (google-adk 2.13's
`ApiParameter`, `TypeHintHelper`, `PydocHelper`).

Runs on: activity side (worker process; pure).
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, Field, model_serializer

from ...._openapi_models import models
from .._naming import rename_python_keywords as rename_python_keywords
from .._naming import to_snake_case

Schema = models.Schema


def _schema_from_openapi(value: object, *, context: str) -> models.Schema:
    """A spec's schema-valued field as a Schema (absent or `true`: the empty schema)."""
    if value is None or value is True:
        return Schema()
    if value is False:
        raise ValueError(f"{context} uses an unsatisfiable false schema")
    if isinstance(value, Schema):
        return value
    if isinstance(value, models.Reference):
        raise ValueError(f"{context} contains unresolved reference {value.ref!r}")
    if isinstance(value, str):
        return Schema.model_validate_json(value)
    if isinstance(value, dict):
        return Schema.model_validate(value)
    raise TypeError(f"{context} must be an OpenAPI schema, got {type(value)!r}")


_DEFAULT_PY_NAMES = {
    "body": "body",
    "query": "query_param",
    "path": "path_param",
    "header": "header_param",
    "cookie": "cookie_param",
}


class ApiParameter(BaseModel):
    """One parameter of a generated tool: where it goes in the request, its schema,
    and its Python name (snake_case, keywords prefixed, unless given)."""

    original_name: str
    param_location: str
    param_schema: str | models.Schema
    description: str | None = ""
    py_name: str | None = ""
    type_value: object = Field(default=None, init_var=False)
    type_hint: str | None = Field(default=None, init_var=False)
    required: bool = False

    def model_post_init(self, _: Any) -> None:
        if not self.py_name:
            name = rename_python_keywords(to_snake_case(self.original_name))
            self.py_name = name or _DEFAULT_PY_NAMES.get(self.param_location or "", "value")
        if isinstance(self.param_schema, str):
            self.param_schema = Schema.model_validate_json(self.param_schema)
        schema = self.param_schema
        self.description = self.description or schema.description or ""
        self.type_value = TypeHintHelper.get_type_value(schema)
        self.type_hint = TypeHintHelper.get_type_hint(schema)

    @property
    def _openapi_schema(self) -> models.Schema:
        if not isinstance(self.param_schema, Schema):
            raise RuntimeError("ApiParameter schema was not normalized")
        return self.param_schema

    @model_serializer
    def _serialize(self) -> dict[str, object]:
        return {
            "original_name": self.original_name,
            "param_location": self.param_location,
            "param_schema": self.param_schema,
            "description": self.description,
            "py_name": self.py_name,
        }

    def __str__(self) -> str:
        return f"{self.py_name}: {self.type_hint}"

    def to_arg_string(self) -> str:
        return f"{self.py_name}={self.py_name}"

    def to_dict_property(self) -> str:
        return f'"{self.py_name}": {self.py_name}'

    def to_pydoc_string(self) -> str:
        return PydocHelper.generate_param_doc(self)


_SCALARS: dict[str, tuple[Any, str]] = {
    "integer": (int, "int"),
    "number": (float, "float"),
    "boolean": (bool, "bool"),
    "string": (str, "str"),
}
# the type values are typing's aliases, as google.adk gives them (signatures show them)
_LIST_VALUES: dict[str, Any] = {
    "integer": typing.List[int],  # noqa: UP006
    "number": typing.List[float],  # noqa: UP006
    "boolean": typing.List[bool],  # noqa: UP006
    "string": typing.List[str],  # noqa: UP006
    "object": typing.List[typing.Dict[str, Any]],  # noqa: UP006
    "array": typing.List[typing.List[Any]],  # noqa: UP006
}


class TypeHintHelper:
    """A schema's Python type (value and spelling)."""

    @staticmethod
    def _get_schema_type(schema: models.Schema | bool | None) -> str | None:
        """The schema's one type (a list of types with one besides null counts)."""
        if schema is None or isinstance(schema, bool):
            return None
        schema_type = schema.type
        if isinstance(schema_type, list):
            non_null = [value for value in schema_type if value != "null"]
            return non_null[0] if len(non_null) == 1 else None
        return schema_type

    @staticmethod
    def get_type_value(schema: models.Schema | bool) -> Any:
        if isinstance(schema, bool):
            return Any
        kind = TypeHintHelper._get_schema_type(schema)
        if kind in _SCALARS:
            return _SCALARS[kind][0]
        if kind == "array":
            items = TypeHintHelper._get_schema_type(schema.items)
            return _LIST_VALUES.get(items or "", typing.List[Any])  # noqa: UP006
        if kind == "object":
            return typing.Dict[str, Any]  # noqa: UP006
        return Any

    @staticmethod
    def get_type_hint(schema: models.Schema | bool) -> str:
        if isinstance(schema, bool):
            return "Any"
        kind = TypeHintHelper._get_schema_type(schema)
        if kind in _SCALARS:
            return _SCALARS[kind][1]
        if kind == "array":
            items = TypeHintHelper._get_schema_type(schema.items)
            if items == "object":
                return "List[Dict[str, Any]]"
            return f"List[{_SCALARS[items][1] if items in _SCALARS else 'Any'}]"
        if kind == "object":
            return "Dict[str, Any]"
        return "Any"


def _properties_doc(schema: models.Schema, indent: str) -> str:
    if schema.type != "object" or not schema.properties:
        return ""
    doc = " Object properties:\n"
    for name, details in schema.properties.items():
        description = details.description if isinstance(details, Schema) else None
        doc += f"{indent}{name} ({TypeHintHelper.get_type_hint(details)}): {description or ''}\n"
    return doc


class PydocHelper:
    """Docstring lines for a generated function's parameters and return value."""

    @staticmethod
    def generate_param_doc(param: ApiParameter) -> str:
        description = param.description.strip() if param.description else ""
        doc = f"{param.py_name} ({param.type_hint}): {description}"
        return doc + _properties_doc(param._openapi_schema, " " * 7)

    @staticmethod
    def generate_return_doc(responses: dict[str, models.Response]) -> str:
        """The doc of the 2xx response with content and the lowest code (numeric codes
        before `2XX`-style ones); its JSON content preferred."""
        qualified = [
            (status, response)
            for status, response in responses.items()
            if status.startswith("2") and isinstance(response, models.Response) and response.content
        ]
        if not qualified:
            return ""
        _, response = min(
            qualified,
            key=lambda item: (0, int(item[0]), "") if item[0].isdigit() else (1, 0, item[0]),
        )
        content = response.content or {}
        media = content.get("application/json") or next(iter(content.values()), None)
        if media is None:
            return ""
        schema = _schema_from_openapi(media.schema_, context="response body")
        hint = ApiParameter(original_name="", param_location="", param_schema=schema).type_hint
        doc = f"Returns ({hint}): {(response.description or '').strip()}"
        return doc + _properties_doc(schema, " " * 8)
