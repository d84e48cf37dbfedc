"""adk.utils.context_utils against google-adk 2.13's: the same Context parameter
found for the same callables (each side's own Context, ToolContext and
CallbackContext), with annotations as objects and as strings; `Aclosing`.

Runs on: test process only (pure).
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

SOURCE = """
import functools
from typing import Optional, Union

def tool(a: int, tool_context: ToolContext) -> str: ...
def plain(ctx: Context): ...
def callback(callback_context: CallbackContext): ...
def optional(a: int, ctx: Optional[ToolContext] = None): ...
def piped(ctx: ToolContext | None = None): ...
def union(ctx: Union[int, CallbackContext]): ...
def listed(ctx: list[ToolContext]): ...
def unannotated(tool_context): ...
def nothing(a: int, b: str): ...
def undefined(a: "NoSuchType", ctx: ToolContext): ...
def first_of_two(a: ToolContext, b: Context): ...
class Sub(Context): ...
def subclass(ctx: Sub): ...
partial = functools.partial(tool, 1)

class Callable:
    def __call__(self, x: int, ctx: ToolContext): ...

class Method:
    def run(self, ctx: CallbackContext): ...

class Init:
    def __init__(self, ctx: ToolContext): ...

@functools.wraps(tool)
def wrapper(*args, **kwargs): ...

CALLABLES = {
    "tool": tool, "plain": plain, "callback": callback, "optional": optional, "piped": piped,
    "union": union, "listed": listed, "unannotated": unannotated, "nothing": nothing,
    "undefined": undefined, "first_of_two": first_of_two, "subclass": subclass,
    "partial": partial, "callable": Callable(), "method": Method().run, "init": Init,
    "wrapper": wrapper, "lambda": lambda ctx: ctx, "builtin": len, "none": None,
}
"""


def _callables(package: str, future: bool) -> dict[str, Any]:
    namespace: dict[str, Any] = {
        "Context": __import__(f"{package}.agents.context", fromlist=["x"]).Context,
        "ToolContext": __import__(f"{package}.tools.tool_context", fromlist=["x"]).ToolContext,
        "CallbackContext": __import__(
            f"{package}.agents.callback_context", fromlist=["x"]
        ).CallbackContext,
    }
    exec(("from __future__ import annotations\n" if future else "") + SOURCE, namespace)
    return namespace["CALLABLES"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("future", [False, True], ids=["objects", "strings"])
def test_the_context_parameter_found_is_google_adks(future: bool) -> None:
    from google.adk.utils.context_utils import find_context_parameter as reference

    from adk.utils.context_utils import find_context_parameter

    ours, theirs = _callables("adk", future), _callables("google.adk", future)
    found = {name: find_context_parameter(ours[name]) for name in ours}
    assert found == {name: reference(theirs[name]) for name in theirs}
    assert found["tool"] == "tool_context" and found["callback"] == "callback_context"


def test_the_cache_helpers_are_there_as_in_google_adk() -> None:
    from google.adk.utils.context_utils import find_context_parameter as reference

    from adk.utils.context_utils import find_context_parameter

    for name in ("cache_clear", "cache_info", "cache_parameters"):
        assert hasattr(find_context_parameter, name) and hasattr(reference, name)
    assert find_context_parameter.cache_parameters() == reference.cache_parameters()  # type: ignore[attr-defined]


def test_aclosing_is_contextlibs() -> None:
    from google.adk.utils.context_utils import Aclosing as Reference

    from adk.utils.context_utils import Aclosing

    assert Aclosing is Reference is contextlib.aclosing
