"""Tool declaration parity with google-adk 2.13: FunctionTool over every kind of callable.

Runs on: test process only. The same callable is wrapped by google-adk's
FunctionTool and ours; the declarations (what the model is told) must be equal,
on the Gemini API and on Vertex AI.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

pytest.importorskip("google.adk")

from google.adk.tools import FunctionTool as RefFunctionTool  # noqa: E402
from google.adk.tools import LongRunningFunctionTool as RefLongRunning  # noqa: E402
from google.adk.tools import ToolContext as RefToolContext  # noqa: E402

from adk.tools import FunctionTool, LongRunningFunctionTool  # noqa: E402
from adk.tools.tool_context import ToolContext  # noqa: E402


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Address(BaseModel):
    """A postal address."""

    street: str = Field(description="Street and number.")
    zip_code: str | None = None


@dataclasses.dataclass
class Box:
    width: int
    height: int = 1


def plain(city: str, days: int = 3) -> dict[str, Any]:
    """Forecast.

    Args:
      city: the city.
      days: how many days.
    """
    return {}


def rich(
    color: Color,
    address: Address,
    tags: list[str] | None = None,
    mode: Literal["fast", "slow"] = "fast",
    box: Box | None = None,
    tool_context: ToolContext | None = None,
) -> list[Address]:
    """Many kinds of parameters."""
    return []


def no_doc(x: int) -> None:
    return None


def no_args() -> str:
    """Nothing to pass."""
    return ""


async def async_tool(query: str) -> str:
    """An async tool."""
    return query


class CallableThing:
    """The class doc."""

    def __call__(self, n: int) -> int:
        """Call me."""
        return n


class Service:
    def lookup(self, key: str) -> str:
        """A bound method."""
        return key


def odd(
    ctx: RefToolContext,
    mapping: dict[str, int],
    pair: tuple[int, str],
    anything: Any,
    maybe: int | None,
    number: float = 1.5,
    flag: bool = False,
) -> str | None:
    """Odd parameters; the context under another name."""
    return None


def untyped(a, b=2):  # type: ignore[no-untyped-def]
    """No annotations at all."""
    return a


def _with_our_context(func: Any) -> Any:
    """`func` again, its context parameter annotated with our ToolContext (each side knows its own)."""
    import types as pytypes
    import typing

    copy = pytypes.FunctionType(func.__code__, func.__globals__, func.__name__, func.__defaults__)
    copy.__doc__ = func.__doc__
    hints = typing.get_type_hints(func)
    copy.__annotations__ = {
        k: (ToolContext if v is RefToolContext else v) for k, v in hints.items()
    }
    return copy


OURS = {"odd": _with_our_context(odd)}

CALLABLES = {
    "odd": odd,
    "untyped": untyped,
    "plain": plain,
    "rich": rich,
    "no_doc": no_doc,
    "no_args": no_args,
    "async": async_tool,
    "instance": CallableThing(),
    "partial": functools.partial(plain, days=2),
    "method": Service().lookup,
}


@pytest.fixture(params=["gemini_api", "vertex_ai"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)
    monkeypatch.setenv("GOOGLE_GENAI_USE_ENTERPRISE", "1" if request.param == "vertex_ai" else "0")
    return str(request.param)


def _dump(declaration: Any) -> dict[str, Any]:
    return declaration.model_dump(mode="json", exclude_none=True)  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_function_tool_declarations_match(name: str, backend: str) -> None:
    func = CALLABLES[name]
    assert _dump(FunctionTool(OURS.get(name, func))._get_declaration()) == _dump(
        RefFunctionTool(func)._get_declaration()
    )


@pytest.mark.parametrize("name", ["plain", "no_args"])
def test_long_running_declarations_match(name: str, backend: str) -> None:
    func = CALLABLES[name]
    assert _dump(LongRunningFunctionTool(func)._get_declaration()) == _dump(
        RefLongRunning(func)._get_declaration()
    )


def test_framework_tool_declarations_match(backend: str) -> None:
    from google.adk.tools import exit_loop as ref_exit_loop
    from google.adk.tools.transfer_to_agent_tool import TransferToAgentTool as RefTransfer

    from adk.tools import exit_loop
    from adk.tools.transfer_to_agent_tool import TransferToAgentTool

    assert _dump(FunctionTool(exit_loop)._get_declaration()) == _dump(
        RefFunctionTool(ref_exit_loop)._get_declaration()
    )
    for include_reason in (False, True):
        ours = TransferToAgentTool(["b", "a"], include_transfer_reason=include_reason)
        ref = RefTransfer(["b", "a"], include_transfer_reason=include_reason)
        assert _dump(ours._get_declaration()) == _dump(ref._get_declaration())
        assert ours.description == ref.description
