"""OpenApiSpecParser: an OpenAPI spec (a dict) to one ParsedOperation per operation.

Runs on: activity side (worker process; pure). As google-adk 2.13: local `$ref`s
resolved (a circular one cut), schema types normalised (unknown ones dropped),
path-level parameters merged under the operation's own, an operation without
`operationId` named from its path and method (`/pets/{id}` GET -> `pets_id_get`),
and each operation's security scheme taken from the spec (its own, else the global
one).
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

from ...._openapi_models import models
from ....auth.auth_credential import AuthCredential
from ....auth.auth_schemes import AuthScheme
from .._naming import to_snake_case
from ..common.common import ApiParameter
from .operation_parser import OperationParser, _required_scheme_name

_VALID_SCHEMA_TYPES = frozenset(
    {"array", "boolean", "integer", "null", "number", "object", "string"}
)
_SCHEMA_CONTAINER_KEYS = frozenset({"schema", "schemas"})
_METHODS = ("get", "post", "put", "delete", "patch", "head", "options", "trace")


class OperationEndpoint(BaseModel):
    base_url: str
    path: str
    method: str


class ParsedOperation(BaseModel):
    name: str
    description: str
    endpoint: OperationEndpoint
    operation: models.Operation
    parameters: list[ApiParameter]
    return_value: ApiParameter
    auth_scheme: AuthScheme | None = None
    auth_credential: AuthCredential | None = None
    additional_context: Any | None = None


class OpenApiSpecParser:
    """Parses an OpenAPI spec dict into ParsedOperations (for RestApiTools)."""

    def __init__(self, *, preserve_property_names: bool = False):
        """`preserve_property_names`: keep the spec's parameter names (else snake_case)."""
        self._preserve_property_names = preserve_property_names

    def parse(self, openapi_spec_dict: dict[str, Any]) -> list[ParsedOperation]:
        spec = self._resolve_references(openapi_spec_dict)
        spec = self._sanitize_schema_types(spec)
        return self._collect_operations(spec)

    def _sanitize_schema_types(self, openapi_spec: dict[str, Any]) -> dict[str, Any]:
        """A copy with every schema's `type` lower-cased and types outside JSON schema's
        seven dropped (a list keeps its valid ones, deduplicated; none left: no type)."""
        spec = copy.deepcopy(openapi_spec)

        def sanitize(schema: dict[str, Any]) -> None:
            if "type" not in schema:
                return
            value = schema["type"]
            if isinstance(value, str):
                if value.lower() in _VALID_SCHEMA_TYPES:
                    schema["type"] = value.lower()
                else:
                    del schema["type"]
            elif isinstance(value, list):
                kept: list[str] = []
                for entry in value:
                    if isinstance(entry, str) and entry.lower() in _VALID_SCHEMA_TYPES:
                        if entry.lower() not in kept:
                            kept.append(entry.lower())
                if kept:
                    schema["type"] = kept
                else:
                    del schema["type"]

        def walk(obj: Any, in_schema: bool) -> Any:
            if isinstance(obj, dict):
                if in_schema:
                    sanitize(obj)
                for key, value in obj.items():
                    obj[key] = walk(value, in_schema or key in _SCHEMA_CONTAINER_KEYS)
                return obj
            if isinstance(obj, list):
                return [walk(item, in_schema) for item in obj]
            return obj

        return walk(spec, False)  # type: ignore[no-any-return]

    def _collect_operations(self, openapi_spec: dict[str, Any]) -> list[ParsedOperation]:
        base_url = ""
        if openapi_spec.get("servers"):
            base_url = openapi_spec["servers"][0].get("url", "")
        global_scheme_name = _required_scheme_name(openapi_spec.get("security"))
        auth_schemes = openapi_spec.get("components", {}).get("securitySchemes", {})
        operations = []
        for path, path_item in openapi_spec.get("paths", {}).items():
            if path_item is None:
                continue
            for method in _METHODS:
                operation_dict = path_item.get(method)
                if operation_dict is None:
                    continue
                own = operation_dict.get("parameters", [])
                overridden = {
                    (p["name"], p.get("in")) for p in own if isinstance(p, dict) and "name" in p
                }
                operation_dict["parameters"] = own + [
                    p
                    for p in path_item.get("parameters", [])
                    if not isinstance(p, dict) or (p.get("name"), p.get("in")) not in overridden
                ]
                if "operationId" not in operation_dict:
                    operation_dict["operationId"] = to_snake_case(f"{path}_{method}")
                operation = models.Operation.model_validate(operation_dict)
                parser = OperationParser(
                    operation, preserve_property_names=self._preserve_property_names
                )
                # an operation's own security (even "none needed") wins over the global one
                scheme_name = parser.get_auth_scheme_name()
                if not scheme_name and operation.security is None:
                    scheme_name = global_scheme_name
                operations.append(
                    ParsedOperation(
                        name=parser.get_function_name(),
                        description=operation.description or operation.summary or "",
                        endpoint=OperationEndpoint(base_url=base_url, path=path, method=method),
                        operation=operation,
                        parameters=parser.get_parameters(),
                        return_value=parser.get_return_value(),
                        auth_scheme=auth_schemes.get(scheme_name) if scheme_name else None,
                        auth_credential=None,
                        additional_context={},
                    )
                )
        return operations

    def _resolve_references(self, openapi_spec: dict[str, Any]) -> dict[str, Any]:
        """A copy with every local `$ref` replaced by what it points to (a dangling one
        kept; a circular one replaced by its siblings, `$ref` dropped)."""
        spec = copy.deepcopy(openapi_spec)
        resolved: dict[str, Any] = {}

        def lookup(ref: str) -> Any:
            parts = ref.split("/")
            if parts[0] != "#":
                raise ValueError(f"External references not supported: {ref}")
            current: Any = spec
            for part in parts[1:]:
                if part not in current:
                    return None
                current = current[part]
            return current

        def walk(obj: Any, seen: set[str]) -> Any:
            if isinstance(obj, dict):
                ref = obj.get("$ref")
                if "$ref" in obj and isinstance(ref, str):
                    if ref in seen and ref not in resolved:
                        return {k: v for k, v in obj.items() if k != "$ref"}
                    seen.add(ref)
                    if ref in resolved:
                        return copy.deepcopy(resolved[ref])
                    target = lookup(ref)
                    if target is None:
                        return obj
                    resolved[ref] = walk(target, seen)
                    return copy.deepcopy(resolved[ref])
                return {key: walk(value, seen) for key, value in obj.items()}
            if isinstance(obj, list):
                return [walk(item, seen) for item in obj]
            return obj

        return walk(spec, set())  # type: ignore[no-any-return]
