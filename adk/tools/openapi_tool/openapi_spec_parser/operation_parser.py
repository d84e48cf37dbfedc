"""OperationParser: one OpenAPI operation's parameters, return value and JSON schema.

Runs on: activity side (worker process; pure). Parameters come from the
operation's `parameters` (path, query, header, cookie) and its request body (an
object's properties one by one, else one `array`/`body` parameter), deduplicated
by Python name, exactly as google-adk 2.13 builds them: the JSON schema is the
function declaration a RestApiTool sends.
"""

from __future__ import annotations

import inspect
from textwrap import dedent
from typing import Any, cast

from ...._openapi_models import jsonable_encoder, models
from .._naming import MAX_TOOL_NAME_LENGTH, rename_python_keywords, to_snake_case
from ..common.common import ApiParameter, PydocHelper, _schema_from_openapi

_MAX_TOOL_NAME_LENGTH = MAX_TOOL_NAME_LENGTH


def _required_scheme_name(security: list[dict[str, list[str]]] | None) -> str:
    """The scheme a security list requires; '' for none, or for optional auth (an
    empty requirement among them)."""
    if not security or any(not requirement for requirement in security):
        return ""
    return next(iter(security[0]), "")


class OperationParser:
    """Parameters, return value, docstring and JSON schema of an OpenAPI operation."""

    def __init__(
        self,
        operation: models.Operation | dict[str, Any] | str,
        should_parse: bool = True,
        *,
        preserve_property_names: bool = False,
    ) -> None:
        if isinstance(operation, dict):
            self._operation = models.Operation.model_validate(operation)
        elif isinstance(operation, str):
            self._operation = models.Operation.model_validate_json(operation)
        else:
            self._operation = operation
        self._preserve_property_names = preserve_property_names
        self._params: list[ApiParameter] = []
        self._return_value: ApiParameter | None = None
        if should_parse:
            self._process_operation_parameters()
            self._process_request_body()
            self._process_return_value()
            self._dedupe_param_names()

    @classmethod
    def load(
        cls,
        operation: models.Operation | dict[str, Any],
        params: list[ApiParameter],
        return_value: ApiParameter | None = None,
        *,
        preserve_property_names: bool = False,
    ) -> OperationParser:
        parser = cls(operation, should_parse=False, preserve_property_names=preserve_property_names)
        parser._params = params
        parser._return_value = return_value
        return parser

    def _get_py_name(self, original_name: str) -> str:
        return rename_python_keywords(original_name) if self._preserve_property_names else ""

    def _process_operation_parameters(self) -> None:
        for param in self._operation.parameters or []:
            if not isinstance(param, models.Parameter):
                continue  # e.g. an unresolved $ref: skipped, as in 2.13
            name = param.name
            description = param.description or ""
            schema = _schema_from_openapi(param.schema_, context=f"operation parameter {name!r}")
            if not schema.description:
                schema.description = description
            self._params.append(
                ApiParameter(
                    original_name=name,
                    param_location=param.in_ or "",
                    param_schema=schema,
                    description=description,
                    # a path parameter is required whatever the spec says: no URL without it
                    required=param.in_ == models.ParameterInType.path or bool(param.required),
                    py_name=self._get_py_name(name),
                )
            )

    def _get_request_body(self) -> models.RequestBody | None:
        body = self._operation.requestBody
        if isinstance(body, models.Reference):
            raise ValueError(f"Request body contains unresolved reference {body.ref!r}")
        if body is not None and not isinstance(body, models.RequestBody):
            raise TypeError(f"Unsupported request body {type(body)!r}")
        return body

    def _process_request_body(self) -> None:
        body = self._get_request_body()
        if body is None or not body.content:
            return
        media_type, media = next(iter(body.content.items()))  # the first media type only
        schema = _schema_from_openapi(
            media.schema_, context=f"request body media type {media_type!r}"
        )
        description = body.description or ""
        if schema.type == "object":
            required = set(schema.required or [])
            for name, details in (schema.properties or {}).items():
                prop = _schema_from_openapi(details, context=f"request body property {name!r}")
                self._params.append(
                    ApiParameter(
                        original_name=name,
                        param_location="body",
                        param_schema=prop,
                        description=prop.description or "",
                        required=name in required,
                        py_name=self._get_py_name(name),
                    )
                )
            return
        if schema.type == "array":
            name = "array"
        elif schema.oneOf or schema.anyOf or schema.allOf or not schema.type:
            name = "body"
        else:
            name = ""  # a scalar body: ApiParameter names it `body`
        self._params.append(
            ApiParameter(
                original_name=name,
                param_location="body",
                param_schema=schema,
                description=description,
            )
        )

    def _dedupe_param_names(self) -> None:
        """A repeated Python name becomes `name_0`, `name_1`, ... (the first one stays)."""
        seen: dict[str, int] = {}
        for param in self._params:
            name = cast(str, param.py_name)
            if name not in seen:
                seen[name] = 0
            else:
                seen[name] += 1
                param.py_name = f"{name}_{seen[name] - 1}"

    def _process_return_value(self) -> None:
        """The schema of the lowest 2xx response's first media type with one."""
        responses = self._operation.responses or {}
        schema = models.Schema()
        codes = [code for code in responses if code.startswith("2")]
        if codes:
            response = responses[min(codes)]
            if isinstance(response, models.Reference):
                raise ValueError(f"Response contains unresolved reference {response.ref!r}")
            if not isinstance(response, models.Response):
                raise TypeError(f"Unsupported response {type(response)!r}")
            for mime_type, media in (response.content or {}).items():
                if media.schema_ is not None:
                    schema = _schema_from_openapi(
                        media.schema_, context=f"response media type {mime_type!r}"
                    )
                    break
        self._return_value = ApiParameter(original_name="", param_location="", param_schema=schema)

    def get_function_name(self) -> str:
        operation_id = self._operation.operationId
        if not operation_id:
            raise ValueError("Operation ID is missing")
        return to_snake_case(operation_id)[:MAX_TOOL_NAME_LENGTH]

    def get_return_type_hint(self) -> str:
        return cast(str, self._require_return_value().type_hint)

    def get_return_type_value(self) -> Any:
        return self._require_return_value().type_value

    def get_parameters(self) -> list[ApiParameter]:
        return self._params

    def get_return_value(self) -> ApiParameter:
        return self._require_return_value()

    def _require_return_value(self) -> ApiParameter:
        if self._return_value is None:
            raise RuntimeError("Operation return value has not been parsed")
        return self._return_value

    def get_auth_scheme_name(self) -> str:
        return _required_scheme_name(self._operation.security)

    def get_pydoc_string(self) -> str:
        params = chr(10).join(f"        {param.to_pydoc_string()}" for param in self._params)
        summary = self._operation.summary or self._operation.description or ""
        returns = PydocHelper.generate_return_doc(self._operation.responses or {})
        return dedent(f"""
        \"\"\"{summary}

        Args:
        {params}

        {returns}
        \"\"\"
            """).strip()

    def get_json_schema(self) -> dict[str, Any]:
        """The arguments' JSON schema: the tool's declared parameters."""
        return {
            "properties": {
                cast(str, p.py_name): jsonable_encoder(p._openapi_schema, exclude_none=True)
                for p in self._params
            },
            "required": [p.py_name for p in self._params if p.required],
            "title": f"{self._operation.operationId or 'unnamed'}_Arguments",
            "type": "object",
        }

    def get_signature_parameters(self) -> list[inspect.Parameter]:
        return [
            inspect.Parameter(
                cast(str, p.py_name),
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=p.type_value,
            )
            for p in self._params
        ]

    def get_annotations(self) -> dict[str, Any]:
        annotations: dict[str, Any] = {cast(str, p.py_name): p.type_value for p in self._params}
        annotations["return"] = self.get_return_type_value()
        return annotations
