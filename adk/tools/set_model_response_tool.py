"""set_model_response: how an agent with output_schema and tools gives its final answer.

Runs on: activity side (declared in the model-step activity, called in the
tool-call activity).

Follows google-adk 2.13: when the model cannot take a response schema together
with tools, the request declares this tool (its parameters: a model schema's
fields, `items` for `list[Model]`, else one `response`) and asks the model to
answer through it. A call validates its arguments against
the schema: valid, the result is set on `actions.set_model_response` and the
agent's final event carries it as JSON; invalid, the model gets the validation
error to fix and calls again.
"""

from __future__ import annotations

import inspect
from types import GenericAlias
from typing import Any, Final

from google.genai import types
from pydantic import BaseModel, TypeAdapter, ValidationError

from ..utils._schema_utils import SchemaType, get_list_inner_type, is_basemodel_schema
from ..utils.variant_utils import get_google_llm_variant
from .base_tool import BaseTool
from .function_tool import FunctionTool
from .tool_context import ToolContext

_SET_MODEL_RESPONSE_TOOL_NAME: Final[str] = "set_model_response"


def _merge_json_schema_descriptions(target: dict[str, Any], source: dict[str, Any]) -> None:
    """Copy the source schema's `description`s onto target's properties and items (nested).

    The declaration is built from the fields' types alone, which carry no
    Field(description=...); ADK puts them back so the model sees them.
    """
    source_props, target_props = source.get("properties"), target.get("properties")
    if isinstance(source_props, dict) and isinstance(target_props, dict):
        for name, source_prop in source_props.items():
            target_prop = target_props.get(name)
            if not isinstance(source_prop, dict) or not isinstance(target_prop, dict):
                continue
            description = source_prop.get("description")
            if isinstance(description, str) and description:
                target_prop["description"] = description
            _merge_json_schema_descriptions(target_prop, source_prop)
    source_items, target_items = source.get("items"), target.get("items")
    if isinstance(source_items, dict) and isinstance(target_items, dict):
        description = source_items.get("description")
        if isinstance(description, str) and description:
            target_items["description"] = description
        _merge_json_schema_descriptions(target_items, source_items)


class SetModelResponseTool(BaseTool):
    """The tool the model gives its structured final answer through (output_schema + tools)."""

    NAME: Final[str] = _SET_MODEL_RESPONSE_TOOL_NAME

    def __init__(self, output_schema: SchemaType) -> None:
        if isinstance(output_schema, types.Schema):  # as 2.13: its dict (a Schema is unhashable)
            output_schema = output_schema.model_dump(exclude_none=True)
        self.output_schema = output_schema
        self._model_type: type[BaseModel] | None = (
            output_schema if is_basemodel_schema(output_schema) else None  # type: ignore[assignment]
        )
        self._list_model_type = get_list_inner_type(output_schema)

        def set_model_response() -> str:
            """Set your final response using the required output schema.

            Use this tool to provide your final structured answer instead
            of outputting text directly.
            """
            return "Response set successfully."

        set_model_response.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            parameters=_parameters(output_schema, self._model_type, self._list_model_type)
        )
        self.func = set_model_response
        super().__init__(
            name=self.NAME,
            description=(set_model_response.__doc__ or "").strip(),
        )

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        declaration = FunctionTool(self.func)._build_declaration(get_google_llm_variant())
        schema = self.output_schema
        if (
            isinstance(schema, type)
            and issubclass(schema, BaseModel)
            and declaration.parameters_json_schema is not None
        ):
            _merge_json_schema_descriptions(
                declaration.parameters_json_schema, schema.model_json_schema()
            )
        return declaration

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        """The validated response; on a validation error, what the model must fix.

        A model class: its dict; `list[Model]`: the `items` argument as a list of
        dicts; any other schema: the `response` argument as given (not checked).
        """
        result: Any
        try:
            if self._model_type is not None:
                result = self._model_type.model_validate(args).model_dump(exclude_none=True)
            elif self._list_model_type is not None:
                adapter: TypeAdapter[list[BaseModel]] = TypeAdapter(self.output_schema)  # type: ignore[arg-type]
                items = adapter.validate_python(args.get("items", []))
                result = [item.model_dump(exclude_none=True) for item in items]
            else:
                result = args.get("response")
        except ValidationError as error:
            return {
                "error": (
                    f"Validation Error found:\n{error}\n"
                    "Recall the set_model_response function correctly, fix the"
                    " errors, and call it again with all required fields using the"
                    " correct types."
                )
            }
        tool_context.actions.set_model_response = result
        return result


def _parameters(
    schema: Any, model: type[BaseModel] | None, list_model: type[BaseModel] | None
) -> list[inspect.Parameter]:
    """set_model_response's keyword-only parameters, as 2.13 declares them: a model's
    fields (types and defaults only), `items` for `list[Model]`, else one `response`
    (typed `dict` for a JSON schema dict, else the schema itself)."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    if model is not None:
        return [
            inspect.Parameter(
                name,
                keyword,
                annotation=field.annotation,
                default=inspect.Parameter.empty
                if field.is_required()
                else field.get_default(call_default_factory=True),
            )
            for name, field in model.model_fields.items()
        ]
    if list_model is not None:
        return [inspect.Parameter("items", keyword, annotation=GenericAlias(list, list_model))]
    annotation = dict if isinstance(schema, dict) else schema
    return [inspect.Parameter("response", keyword, annotation=annotation)]
