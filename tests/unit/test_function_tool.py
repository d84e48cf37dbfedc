"""Tests for FunctionTool, LongRunningFunctionTool, exit_loop and TransferToAgentTool.

Runs on: test process only.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from types import SimpleNamespace
from typing import Any, Optional

import pytest
from pydantic import BaseModel

from adk.agents.callback_context import CallbackContext
from adk.agents.invocation_context import InvocationContext
from adk.sessions.session import Session
from adk.tools import (
    BaseTool,
    FunctionTool,
    LongRunningFunctionTool,
    ToolConfirmation,
    ToolContext,
    TransferToAgentTool,
    exit_loop,
    transfer_to_agent,
)

NOTE = (
    "NOTE: This is a long-running operation. Do not call this tool again if it has"
    " already returned some intermediate or pending status."
)
HINT = (
    "Please approve or reject the tool call {}() by responding with a FunctionResponse"
    " with an expected ToolConfirmation payload."
)
PENDING = {"error": "This tool call requires confirmation, please approve or reject."}
REJECTED = {"error": "This tool call is rejected."}

_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")


class Point(BaseModel):
    x: int
    y: int


class Circle(BaseModel):
    radius: float


class Square(BaseModel):
    side: float


def make_context(
    confirmation: ToolConfirmation | None = None, call_id: str = "call-1"
) -> ToolContext:
    session = Session(id="s1", app_name="app", user_id="u1", state={"k": "v"})
    ctx = InvocationContext(
        invocation_id="e-1", agent=SimpleNamespace(name="root"), session=session
    )
    return ToolContext(ctx, function_call_id=call_id, tool_confirmation=confirmation)


def get_weather(city: str, unit: str = "c", tool_context: ToolContext = None) -> dict:  # type: ignore[assignment]
    """Get the weather.

    Args:
      city: City name.
    """
    return {"city": city, "unit": unit, "ctx": tool_context}


# Declarations --------------------------------------------------------------


def test_worked_example_declaration() -> None:
    tool = FunctionTool(get_weather)
    assert tool.name == "get_weather"
    assert tool.description == "Get the weather.\n\nArgs:\n  city: City name."
    assert tool._ignore_params == ["tool_context", "input_stream"]
    decl = tool._get_declaration()
    assert decl is not None
    assert decl.name == "get_weather"
    assert decl.description == "Get the weather.\n\nArgs:\n  city: City name."
    assert decl.parameters is None
    assert decl.response_json_schema is None
    assert decl.parameters_json_schema == {
        "properties": {
            "city": {"title": "City", "type": "string"},
            "unit": {"default": "c", "title": "Unit", "type": "string"},
        },
        "required": ["city"],
        "title": "get_weatherParams",
        "type": "object",
    }


def test_declaration_drops_var_args_keeps_keyword_only() -> None:
    def f(a: int, *args: Any, b: bool = False, **kwargs: Any) -> None:
        pass

    schema = FunctionTool(f)._get_declaration().parameters_json_schema  # type: ignore[union-attr]
    assert schema == {
        "properties": {
            "a": {"title": "A", "type": "integer"},
            "b": {"default": False, "title": "B", "type": "boolean"},
        },
        "required": ["a"],
        "title": "fParams",
        "type": "object",
    }


def test_declaration_without_parameters_or_doc() -> None:
    def ping():  # type: ignore[no-untyped-def]
        return "pong"

    decl = FunctionTool(ping)._get_declaration()
    assert decl is not None
    assert decl.parameters_json_schema is None
    assert decl.description is None
    assert FunctionTool(exit_loop)._get_declaration().parameters_json_schema is None  # type: ignore[union-attr]


def test_declaration_is_a_deep_copy() -> None:
    tool = FunctionTool(get_weather)
    first = tool._get_declaration()
    first.name = "prefixed_get_weather"  # type: ignore[union-attr]
    first.parameters_json_schema["properties"].clear()  # type: ignore[index,union-attr]
    second = tool._get_declaration()
    assert second.name == "get_weather"  # type: ignore[union-attr]
    assert "city" in second.parameters_json_schema["properties"]  # type: ignore[index,union-attr]


def test_declaration_of_nested_model_and_optional() -> None:
    def draw(points: list[Point], label: str | None = None) -> None:
        pass

    schema = FunctionTool(draw)._get_declaration().parameters_json_schema  # type: ignore[union-attr]
    assert schema["properties"]["points"] == {
        "items": {"$ref": "#/$defs/Point"},
        "title": "Points",
        "type": "array",
    }
    assert schema["properties"]["label"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}],
        "default": None,
        "title": "Label",
    }
    assert set(schema["$defs"]) == {"Point"}


def test_non_callable_rejected() -> None:
    with pytest.raises(TypeError, match="Expected a callable object, got int"):
        FunctionTool(3)  # type: ignore[arg-type]


def test_callable_instance_name_and_doc() -> None:
    class Adder:
        def __call__(self, a: int, b: int) -> int:
            """Add two numbers."""
            return a + b

    tool = FunctionTool(Adder())
    assert tool.name == "Adder"
    assert tool.description == "Add two numbers."


# Context injection ---------------------------------------------------------


@pytest.mark.parametrize(
    "annotation",
    [ToolContext, Optional[ToolContext], CallbackContext | None],  # noqa: UP045
)
async def test_context_detected_by_annotation(annotation: Any) -> None:
    def f(x: int, ctx: Any = None) -> Any:
        return ctx

    f.__annotations__["ctx"] = annotation
    tool = FunctionTool(f)
    assert tool._ignore_params[0] == "ctx"
    assert "ctx" not in tool._get_declaration().parameters_json_schema["properties"]  # type: ignore[index,union-attr]
    context = make_context()
    assert await tool.run_async(args={"x": 1, "ctx": "forged"}, tool_context=context) is context


async def test_context_detected_by_name() -> None:
    def f(tool_context, x: int):  # type: ignore[no-untyped-def]
        return tool_context

    tool = FunctionTool(f)
    context = make_context()
    assert await tool.run_async(args={"x": 1}, tool_context=context) is context


# Calling -------------------------------------------------------------------


async def test_async_function_awaited() -> None:
    async def add(a: int, b: int) -> int:
        await asyncio.sleep(0)
        return a + b

    assert (
        await FunctionTool(add).run_async(args={"a": 1, "b": 2}, tool_context=make_context()) == 3
    )


async def test_sync_function_runs_off_the_event_loop_thread() -> None:
    loop_thread = threading.get_ident()

    def where() -> dict[str, Any]:
        return {"thread": threading.get_ident(), "request": _request_id.get()}

    _request_id.set("r-42")
    result = await FunctionTool(where).run_async(args={}, tool_context=make_context())
    assert result["thread"] != loop_thread
    assert result["request"] == "r-42"


async def test_raw_result_and_extra_args_dropped() -> None:
    def echo(text: str) -> list[str]:
        return [text]

    result = await FunctionTool(echo).run_async(
        args={"text": "hi", "bogus": 1}, tool_context=make_context()
    )
    assert result == ["hi"]


async def test_kwargs_does_not_collect_extras() -> None:
    def f(a: int, **kwargs: Any) -> dict[str, Any]:
        return kwargs

    assert await FunctionTool(f).run_async(args={"a": 1, "b": 2}, tool_context=make_context()) == {}


async def test_missing_mandatory_args_error() -> None:
    result = await FunctionTool(get_weather).run_async(
        args={"unit": "f"}, tool_context=make_context()
    )
    assert result == {
        "error": "Invoking `get_weather()` failed as the following mandatory input parameters"
        " are not present:\ncity\nYou could retry calling this tool, but it is IMPORTANT for"
        " you to provide all the mandatory parameters."
    }


async def test_missing_mandatory_args_lists_each_and_none_counts_as_present() -> None:
    def f(a: Any, b: Any, c: Any) -> str:
        return "called"

    tool = FunctionTool(f)
    result = await tool.run_async(args={"b": None}, tool_context=make_context())
    assert result["error"].splitlines()[1:3] == ["a", "c"]
    assert (
        await tool.run_async(args={"a": None, "b": None, "c": 0}, tool_context=make_context())
        == "called"
    )


# Argument conversion -------------------------------------------------------


async def test_pydantic_args_converted() -> None:
    def f(
        p: Point,
        maybe: Optional[Point],  # noqa: UP045 (typing.Optional on purpose)
        many: list[Point],
        shape: Circle | Square,
    ) -> Any:
        return p, maybe, many, shape

    args = {
        "p": {"x": 1, "y": 2},
        "maybe": {"x": 3, "y": 4},
        "many": [{"x": 5, "y": 6}, "not-a-dict"],
        "shape": {"side": 2.0},
    }
    p, maybe, many, shape = await FunctionTool(f).run_async(args=args, tool_context=make_context())
    assert p == Point(x=1, y=2)
    assert maybe == Point(x=3, y=4)
    assert many == [Point(x=5, y=6), "not-a-dict"]
    assert shape == Square(side=2.0)


async def test_pydantic_conversion_failure_and_none_keep_raw_value() -> None:
    def f(p: Point, maybe: Point | None = None) -> Any:
        return p, maybe

    result = await FunctionTool(f).run_async(
        args={"p": {"x": "nope"}, "maybe": None}, tool_context=make_context()
    )
    assert result == ({"x": "nope"}, None)


async def test_integral_floats_become_ints() -> None:
    def f(n: int, maybe: int | None, ns: list[int], ratio: float) -> Any:
        return n, maybe, ns, ratio

    n, maybe, ns, ratio = await FunctionTool(f).run_async(
        args={"n": 3.0, "maybe": 2.5, "ns": [1.0, 2.0], "ratio": 1.0}, tool_context=make_context()
    )
    assert (n, maybe, ns, ratio) == (3, 2.5, [1, 2], 1.0)
    assert type(n) is int and type(ns[0]) is int and type(ratio) is float


# Confirmation --------------------------------------------------------------


def transfer_money(amount: int, to: str) -> str:
    return f"sent {amount} to {to}"


async def test_base_tool_requires_no_confirmation() -> None:
    class Plain(BaseTool):
        pass

    tool = Plain(name="plain", description="")
    assert await tool.check_require_confirmation({}, make_context()) is False


async def test_confirmation_pending() -> None:
    tool = FunctionTool(transfer_money, require_confirmation=True)
    context = make_context()
    result = await tool.run_async(args={"amount": 5, "to": "bob"}, tool_context=context)
    assert result == PENDING
    assert context.actions.skip_summarization is True
    requested = context.actions.requested_tool_confirmations["call-1"]
    assert requested.hint == HINT.format("transfer_money")
    assert requested.confirmed is False and requested.payload is None


async def test_confirmation_rejected_and_approved() -> None:
    tool = FunctionTool(transfer_money, require_confirmation=True)
    rejected = make_context(ToolConfirmation(confirmed=False))
    result = await tool.run_async(args={"amount": 5, "to": "bob"}, tool_context=rejected)
    assert result == REJECTED
    assert rejected.actions.requested_tool_confirmations == {}
    approved = make_context(ToolConfirmation(confirmed=True))
    result = await tool.run_async(args={"amount": 5, "to": "bob"}, tool_context=approved)
    assert result == "sent 5 to bob"


async def test_missing_args_reported_before_confirmation() -> None:
    tool = FunctionTool(transfer_money, require_confirmation=True)
    context = make_context()
    result = await tool.run_async(args={"amount": 5}, tool_context=context)
    assert "mandatory input parameters" in result["error"]
    assert context.actions.requested_tool_confirmations == {}


async def test_confirmation_callable_gets_the_functions_kwargs() -> None:
    seen: list[dict[str, Any]] = []

    def needs_approval(amount: int, to: str) -> bool:
        seen.append({"amount": amount, "to": to})
        return amount > 100

    tool = FunctionTool(transfer_money, require_confirmation=needs_approval)
    small = await tool.run_async(
        args={"amount": 5.0, "to": "bob", "x": 1}, tool_context=make_context()
    )
    assert small == "sent 5 to bob"
    big = await tool.run_async(args={"amount": 500, "to": "bob"}, tool_context=make_context())
    assert big == PENDING
    assert seen == [{"amount": 5, "to": "bob"}, {"amount": 500, "to": "bob"}]
    assert type(seen[0]["amount"]) is int


async def test_async_confirmation_callable_gets_the_context_too() -> None:
    def note(text: str, tool_context: ToolContext) -> str:
        return text

    received: list[Any] = []

    async def predicate(text: str, tool_context: ToolContext) -> bool:
        received.append(tool_context)
        return True

    context = make_context()
    tool = FunctionTool(note, require_confirmation=predicate)
    assert await tool.check_require_confirmation({"text": "hi"}, context) is True
    assert received == [context]


# LongRunningFunctionTool, exit_loop, transfer_to_agent ------------------------


async def test_long_running_tool() -> None:
    tool = LongRunningFunctionTool(get_weather)
    assert tool.is_long_running is True
    assert tool.description == "Get the weather.\n\nArgs:\n  city: City name."
    decl = tool._get_declaration()
    assert decl.description == "Get the weather.\n\nArgs:\n  city: City name.\n\n" + NOTE  # type: ignore[union-attr]
    assert tool._get_declaration().description == decl.description  # type: ignore[union-attr]

    def start_job():  # type: ignore[no-untyped-def]
        return {"status": "pending"}

    job = LongRunningFunctionTool(start_job)
    assert job._get_declaration().description == NOTE  # type: ignore[union-attr]
    assert await job.run_async(args={}, tool_context=make_context()) == {"status": "pending"}


async def test_exit_loop() -> None:
    tool = FunctionTool(exit_loop)
    assert tool.name == "exit_loop"
    assert tool.description == (
        "Exits the loop.\n\nCall this function only when you are instructed to do so."
    )
    context = make_context()
    assert await tool.run_async(args={}, tool_context=context) is None
    assert context.actions.escalate is True
    assert context.actions.skip_summarization is True


async def test_transfer_to_agent_tool() -> None:
    tool = TransferToAgentTool(["billing", "support"])
    assert tool.name == "transfer_to_agent"
    assert tool.func is transfer_to_agent
    schema = tool._get_declaration().parameters_json_schema  # type: ignore[union-attr]
    assert schema == {
        "properties": {
            "agent_name": {"enum": ["billing", "support"], "title": "Agent Name", "type": "string"}
        },
        "required": ["agent_name"],
        "title": "transfer_to_agentParams",
        "type": "object",
    }
    assert (
        "enum"
        not in FunctionTool(transfer_to_agent)
        ._get_declaration()
        .parameters_json_schema[  # type: ignore[index,union-attr]
            "properties"
        ]["agent_name"]
    )
    context = make_context()
    assert await tool.run_async(args={"agent_name": "billing"}, tool_context=context) is None
    assert context.actions.transfer_to_agent == "billing"
