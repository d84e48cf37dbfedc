"""Finding a callable's Context parameter; `Aclosing`.

Runs on: activity and process side (pure). Mirrors google-adk 2.13's
`google.adk.utils.context_utils` (for ADK's internal use there): a parameter is
the context one when annotated exactly `Context` or one of its 2.13 aliases,
`ToolContext` and `CallbackContext` (here `CallbackContext` is Context's base
class, so it is named too), or an Optional / union of one.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from contextlib import aclosing
from types import UnionType
from typing import Any, TypeVar, Union, cast, get_args, get_origin

__all__ = ["Aclosing", "find_context_parameter"]

Aclosing = aclosing

_F = TypeVar("_F", bound=Callable[..., Any])

_METHOD_WRAPPERS = (type((1).__add__), type(object.__str__), type(str.lower))


def _cached_if_hashable(maxsize: int) -> Callable[[_F], _F]:
    """functools.lru_cache, run uncached for unhashable arguments (with the cache's
    `cache_clear`, `cache_info` and `cache_parameters`)."""

    def decorator(func: _F) -> _F:
        cached = functools.lru_cache(maxsize=maxsize)(func)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                hash(args + tuple(kwargs.values()))
            except TypeError:
                return func(*args, **kwargs)
            return cached(*args, **kwargs)

        for attribute in ("cache_clear", "cache_info", "cache_parameters"):
            setattr(wrapper, attribute, getattr(cached, attribute))
        return cast(_F, wrapper)

    return decorator


def _is_routine(func: Any) -> bool:
    return inspect.isroutine(func) or isinstance(func, _METHOD_WRAPPERS)


def _is_callable_object(func: Any) -> bool:
    # (hasattr, not callable(): an instance attribute `__call__` counts, as in 2.13)
    return hasattr(func, "__call__") and not _is_routine(func) and not isinstance(func, type)  # noqa: B004


def _unwrapped(func: Any) -> Any:
    """The function under partials, bound methods, `__wrapped__` and callable objects."""
    seen: set[int] = set()
    while id(func) not in seen:
        seen.add(id(func))
        if isinstance(func, functools.partial):
            func = func.func
        elif hasattr(func, "__func__"):
            func = func.__func__
        elif _is_callable_object(func):
            wrapped = getattr(func, "__wrapped__", None)
            if wrapped is not None and wrapped is not func:
                func = wrapped
                continue
            call = getattr(func, "__call__", None)  # noqa: B004
            if call is None or call is func:
                break
            func = call
        else:
            break
    return func


@functools.lru_cache(maxsize=1024)
def _resolved_hints(func: Any) -> dict[str, Any]:
    """typing.get_type_hints; a NameError (a forward reference not defined yet) is
    raised, so it is not cached."""
    try:
        return typing.get_type_hints(func)
    except (TypeError, AttributeError):
        return {}


def _type_hints(func: Any) -> dict[str, Any]:
    try:
        hints = _resolved_hints(_unwrapped(func))
    except NameError:
        hints = {}
    if not hints and _is_callable_object(func):
        try:
            hints = _resolved_hints(func.__call__)
        except NameError:
            hints = {}
    return hints


def _is_context_type(annotation: Any) -> bool:
    """Whether the annotation is Context (or an alias of it), or a union holding it."""
    from ..agents.callback_context import CallbackContext
    from ..agents.context import Context

    if annotation is inspect.Parameter.empty:
        return False
    if get_origin(annotation) in (Union, UnionType):
        return any(_is_context_type(arg) for arg in get_args(annotation))
    return annotation is Context or annotation is CallbackContext


@_cached_if_hashable(maxsize=1024)
def find_context_parameter(func: Callable[..., Any]) -> str | None:
    """The name of `func`'s first parameter annotated with Context (or ToolContext,
    CallbackContext), string annotations resolved; None if it has none."""
    if func is None:
        return None
    try:
        signature = inspect.signature(func)
    except (ValueError, TypeError):
        return None
    try:
        hints = _type_hints(func)
    except Exception:  # unresolvable annotations: read them as written
        hints = {}
    for name, parameter in signature.parameters.items():
        if _is_context_type(hints.get(name, parameter.annotation)):
            return name
    return None
