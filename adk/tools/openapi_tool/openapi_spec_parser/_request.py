"""The parts of a RestApiTool's HTTP request: parameter values, URL and body, as
google-adk 2.13 builds them.

Runs on: activity side (pure).
"""

from __future__ import annotations

import functools
import importlib.metadata
from typing import Any, cast
from urllib.parse import parse_qs, quote, urlparse, urlunparse

from ...._openapi_models import models
from ....errors.input_validation_error import InputValidationError
from ..common.common import ApiParameter
from .openapi_spec_parser import OperationEndpoint


def to_param_string(value: object) -> str:
    """A path, header or cookie value as OpenAPI's `simple` style writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(to_param_string(item) for item in value if item is not None)
    if isinstance(value, dict):
        return ",".join(f"{k},{to_param_string(v)}" for k, v in value.items() if v is not None)
    return str(value)


def encode_path_param(*, name: str, value: str) -> str:
    """Percent-encoded (`/` too); a `.` or `..` segment is refused, so a value cannot
    lead the request to a path the spec does not declare."""
    for segment in value.replace("\\", "/").split("/"):
        if segment in (".", ".."):
            raise InputValidationError(
                f"Path parameter {name!r} must not contain current-directory or"
                " parent-directory segments."
            )
    return quote(value, safe="")


@functools.cache
def user_agent_version() -> str:
    try:
        return importlib.metadata.version("durable-adk")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a source tree
        return "0"


def url_for(
    endpoint: OperationEndpoint,
    parameters: list[ApiParameter],
    path_params: dict[str, Any],
    query_params: dict[str, Any],
) -> str:
    """base URL + path with its parameters; a query string the spec wrote in the path
    moves into `query_params` (httpx would replace it)."""
    base_url = endpoint.base_url or ""
    base_url = base_url[:-1] if base_url.endswith("/") else base_url
    try:
        path = endpoint.path.format(**path_params)
    except KeyError as error:
        missing = error.args[0] if error.args else str(error)
        for param in parameters:
            if param.param_location == "path" and param.original_name == missing:
                if param.py_name:
                    raise InputValidationError(
                        f"Missing required path parameter '{param.py_name}'."
                    ) from error
        raise
    parsed = urlparse(f"{base_url}{path}")
    for part in (parsed.query, parsed.fragment):
        if part:
            for key, values in parse_qs(part).items():
                query_params.setdefault(key, values[0] if len(values) == 1 else values)
    return urlunparse(parsed._replace(query="", fragment=""))


def body_for(
    operation: models.Operation,
    parameters: list[ApiParameter],
    kwargs: dict[str, Any],
    headers: dict[str, str],
) -> dict[str, Any]:
    """The request body's keyword (`json`, `data`, `files`) from the body parameters, by
    the first media type; its Content-Type set in `headers` (but multipart's)."""
    body = operation.requestBody
    if not body:
        return {}
    mime_type, media = next(iter(body.content.items()))  # type: ignore[union-attr]
    data: Any = None
    if cast(Any, media.schema_).type == "object":  # (no schema: AttributeError, as 2.13)
        data = {
            p.original_name: kwargs[p.py_name]
            for p in parameters
            if p.param_location == "body" and p.py_name in kwargs
        }
    else:  # one body parameter, whatever its (deduplicated) name
        param = next((p for p in parameters if p.param_location == "body"), None)
        data = kwargs.get(param.py_name) if param and param.py_name in kwargs else None
    encoded: dict[str, Any] = {}
    if mime_type == "application/json" or mime_type.endswith("+json"):
        if data is not None:
            encoded["json"] = data
    elif mime_type in ("application/x-www-form-urlencoded", "application/octet-stream"):
        encoded["data"] = data
    elif mime_type == "text/plain":
        encoded["data"] = data
    elif mime_type == "multipart/form-data":
        encoded["files"] = data
    if mime_type and mime_type != "multipart/form-data":
        headers["Content-Type"] = mime_type  # multipart: httpx sets it with the boundary
    return encoded
