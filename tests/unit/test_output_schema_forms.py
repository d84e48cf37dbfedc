"""Every output_schema form google-adk 2.13 takes, against 2.13: what an LlmAgent accepts,
the request as google-genai sends it (Gemini API and Vertex AI), set_model_response's
declaration and results, and how an answer is validated (value or exception).

Runs on: test process only (pure; both sides in-process).
"""

from __future__ import annotations

import asyncio
import enum
import json
from typing import Annotated, Any, Union

import pytest
from google.genai import _api_client, _common, models, types
from pydantic import BaseModel, Field

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent as RefLlmAgent  # noqa: E402
from google.adk.tools.set_model_response_tool import (  # noqa: E402
    SetModelResponseTool as RefSetModelResponseTool,
)
from google.adk.utils._schema_utils import validate_schema as ref_validate  # noqa: E402

from adk.agents import LlmAgent  # noqa: E402
from adk.tools.set_model_response_tool import SetModelResponseTool  # noqa: E402
from adk.utils._schema_utils import validate_schema  # noqa: E402

from .test_request_parity import (  # noqa: E402
    _our_request,
    _ref_request,
    backend,  # noqa: F401  (every case on both backends)
    get_weather,
    text,
)


class Item(BaseModel):
    name: str = Field(description="The name.")
    qty: int = 1
    note: str | None = None


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


FORMS: dict[str, Any] = {
    "model": Item,
    "list_of_models": list[Item],
    "list_of_str": list[str],
    "dict_str_int": dict[str, int],
    "json_schema_dict": {
        "type": "object",
        "properties": {"a": {"type": "integer", "description": "A"}},
        "required": ["a"],
    },
    "genai_schema": types.Schema(
        type=types.Type.OBJECT, properties={"a": types.Schema(type=types.Type.INTEGER)}
    ),
    "str": str,
    "enum": Color,
    "optional_model": Item | None,
    "union": Union[Item, int],
    "annotated_model": Annotated[Item, Field(description="x")],
    "list_of_annotated": list[Annotated[Item, Field(description="y")]],
}
TEXTS = [
    '{"name": "a", "qty": 2}',
    '[{"name": "a"}, {"name": "b", "note": null}]',
    '```json\n{"name": "b"}\n```',
    "```\n[1, 2]```",
    "not json",
    '"hi"',
    '{"a": 1}',
    '{"name": 5}',
]
REJECTED = ["STRING", 5, None]


def _outcome(fn: Any) -> Any:
    try:
        return ["value", fn()]
    except Exception as error:
        return ["raised", type(error).__name__, str(error)]


@pytest.mark.parametrize("form", FORMS)
def test_an_agent_keeps_the_form_as_2_13_does(form: str) -> None:
    def kept(agent_class: type) -> Any:
        schema = agent_class(name="a", output_schema=FORMS[form]).output_schema
        return (type(schema).__name__, schema == FORMS[form], schema is FORMS[form])

    assert _outcome(lambda: kept(LlmAgent)) == _outcome(lambda: kept(RefLlmAgent))


@pytest.mark.parametrize("value", REJECTED)
def test_an_agent_refuses_what_2_13_refuses(value: Any) -> None:
    def kept(agent_class: type) -> Any:
        return agent_class(name="a", output_schema=value).output_schema

    assert _outcome(lambda: kept(LlmAgent)) == _outcome(lambda: kept(RefLlmAgent))


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("answer", TEXTS)
def test_an_answer_is_validated_as_2_13_does(form: str, answer: str) -> None:
    schema = FORMS[form]
    assert _outcome(lambda: validate_schema(schema, answer)) == _outcome(
        lambda: ref_validate(schema, answer)
    )


def _wire(request: Any, vertex: bool) -> str:
    """The generateContent request google-genai would send for this LlmRequest."""
    if vertex:
        client = _api_client.BaseApiClient(vertexai=True, project="p", location="us-central1")
        convert = models._GenerateContentParameters_to_vertex
    else:
        client = _api_client.BaseApiClient(api_key="test")
        convert = models._GenerateContentParameters_to_mldev
    params = types._GenerateContentParameters(
        model=request.model or "gemini-2.5-flash",
        contents=request.contents,
        config=request.config,
    )
    return json.dumps(_common.convert_to_dict(convert(client, params)), sort_keys=True, default=str)


@pytest.mark.parametrize("with_tools", [False, True], ids=["no_tools", "tools"])
@pytest.mark.parametrize("form", FORMS)
async def test_the_request_is_byte_identical(form: str, with_tools: bool, backend: str) -> None:  # noqa: F811
    tools = [get_weather] if with_tools else []

    def tree(Agent: type, _AgentTool: type) -> Any:
        return Agent(
            name="schema",
            model="gemini-2.5-flash",
            instruction="Answer.",
            output_schema=FORMS[form],
            tools=tools,
        )

    ref = await _built(_ref_request, tree)
    ours = await _built(_our_request, tree)
    vertex = backend == "vertex_ai"
    assert _outcome(lambda: _wire(ours, vertex)) == _outcome(lambda: _wire(ref, vertex))


async def _built(build: Any, tree: Any) -> Any:
    """The LlmRequest `build` makes (before the test module's JSON dump)."""
    import tests.unit.test_request_parity as parity

    dump = parity._dump
    parity._dump = lambda request: request  # type: ignore[assignment]
    try:
        return await build(tree, "schema", [text("user", "hi")], {}, None)
    finally:
        parity._dump = dump


class _Actions:
    set_model_response: Any = "unset"


class _Context:
    def __init__(self) -> None:
        self.actions = _Actions()


ARGS = [
    {"name": "a"},
    {"items": [{"name": "a"}, {"name": "b", "qty": 2}]},
    {"response": {"a": 1}},
    {"response": ["x"]},
    {"name": 3},
    {"items": [{"qty": 1}]},
    {},
]


@pytest.mark.parametrize("form", FORMS)
def test_set_model_response_is_declared_and_answers_as_2_13(form: str, backend: str) -> None:  # noqa: F811
    ours, ref = SetModelResponseTool(FORMS[form]), RefSetModelResponseTool(FORMS[form])
    assert _outcome(lambda: ours._get_declaration().model_dump(mode="json")) == _outcome(
        lambda: ref._get_declaration().model_dump(mode="json")
    )
    for args in ARGS:
        results = []
        for tool in (ours, ref):
            context = _Context()
            result = _outcome(lambda: asyncio.run(tool.run_async(args=args, tool_context=context)))  # noqa: B023
            results.append((result, context.actions.set_model_response))
        assert results[0] == results[1], args


@pytest.mark.parametrize("form", [*FORMS, "empty_dict"])
def test_an_agent_tool_declares_the_answer_as_2_13(form: str, backend: str) -> None:  # noqa: F811
    from google.adk.tools.agent_tool import AgentTool as RefAgentTool

    from adk.tools.agent_tool import AgentTool

    schema = FORMS.get(form, {})

    def declared(agent_class: type, tool_class: type) -> Any:
        agent = agent_class(name="inner", description="Answers.", output_schema=schema)
        return tool_class(agent)._get_declaration().model_dump(mode="json", exclude_none=True)

    assert declared(LlmAgent, AgentTool) == declared(RefLlmAgent, RefAgentTool)
