"""The legacy label-only feature decorators, as google-adk 2.13's utils.feature_decorator.

Runs on: process and activity side (a decorated unit reads the environment when used).

`@experimental` warns once per message (UserWarning `[EXPERIMENTAL] Name: message`)
when a decorated class is instantiated or a decorated function called, unless
ADK_SUPPRESS_EXPERIMENTAL_FEATURE_WARNINGS is on. `@working_in_progress` raises
RuntimeError (`[WIP] Name: message`) on use unless ADK_ALLOW_WIP_FEATURES is on.
Each takes a message or none (`@experimental`, `@experimental()`,
`@experimental("...")`); google-adk's FeatureName enum is refused (TypeError).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from enum import Enum
from typing import Any, Protocol, TypeVar, cast, overload

from .env_utils import _is_experimental_warning_suppressed, is_env_enabled

T = TypeVar("T")

_EXPERIMENTAL_LABEL = "EXPERIMENTAL"


class _FeatureDecorator(Protocol):
    """Usable bare or with a message; keeps the decorated object's type."""

    @overload
    def __call__(self, message_or_obj: T) -> T: ...

    @overload
    def __call__(self, message_or_obj: str | None = ...) -> Callable[[T], T]: ...

    def __call__(self, message_or_obj: Any = None) -> Any: ...


# an unchanging notice repeated buries the warnings a user can act on, and Python's
# own once-per-location filter is lost whenever anything touches the filters
_WARNED_MESSAGES: set[str] = set()


def _warn_once(msg: str) -> None:
    if msg in _WARNED_MESSAGES:
        return
    _WARNED_MESSAGES.add(msg)
    warnings.warn(msg, category=UserWarning, stacklevel=3)


def _make_feature_decorator(
    *,
    label: str,
    default_message: str,
    block_usage: bool = False,
    bypass_env_var: str | None = None,
) -> _FeatureDecorator:
    def decorator_factory(message_or_obj: Any = None) -> Any:
        if message_or_obj is not None and (
            isinstance(message_or_obj, type) or callable(message_or_obj)
        ):  # bare: @decorator
            return _create_decorator(default_message, label, block_usage, bypass_env_var)(
                message_or_obj
            )
        if isinstance(message_or_obj, Enum):  # a FeatureName is a str enum: not a message
            raise TypeError(
                "This is a legacy label-only decorator built on"
                " google.adk.utils.feature_decorator; it takes a message, not"
                f" {message_or_obj!r}. To gate a unit on a FeatureName, use the"
                " decorators in google.adk.features instead."
            )
        message = message_or_obj if isinstance(message_or_obj, str) else default_message
        return _create_decorator(message, label, block_usage, bypass_env_var)

    return cast(_FeatureDecorator, decorator_factory)


def _create_decorator(
    message: str, label: str, block_usage: bool, bypass_env_var: str | None
) -> Callable[[T], T]:
    is_experimental = label.upper() == _EXPERIMENTAL_LABEL

    def should_warn(msg: str) -> bool:
        """RuntimeError if blocked; read at each use (the environment may change).
        The caller warns, so the warning points at the user's line (stacklevel)."""
        if bypass_env_var is not None and is_env_enabled(bypass_env_var):
            return False
        if is_experimental and not block_usage and _is_experimental_warning_suppressed():
            return False
        if block_usage:
            raise RuntimeError(msg)
        return True

    def decorator(obj: T) -> T:
        msg = f"[{label.upper()}] {getattr(obj, '__name__', type(obj).__name__)}: {message}"
        if isinstance(obj, type):
            cls = cast(Any, obj)
            original_init = cls.__init__

            @functools.wraps(original_init)
            def new_init(self: Any, *args: Any, **kwargs: Any) -> Any:
                if should_warn(msg):
                    _warn_once(msg)
                return original_init(self, *args, **kwargs)

            cls.__init__ = new_init
            return obj
        if callable(obj):
            func = cast(Callable[..., Any], obj)

            @functools.wraps(func)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                if should_warn(msg):
                    _warn_once(msg)
                return func(*args, **kwargs)

            return cast(T, wrapper)
        raise TypeError(f"@{label} can only be applied to classes or callable objects")

    return decorator


working_in_progress = _make_feature_decorator(
    label="WIP",
    default_message=(
        "This feature is a work in progress and is not working completely. ADK"
        " users are not supposed to use it."
    ),
    block_usage=True,
    bypass_env_var="ADK_ALLOW_WIP_FEATURES",
)
"""Marks a class or function as a work in progress: using it raises RuntimeError
unless ADK_ALLOW_WIP_FEATURES is on (not for ADK users to set)."""

experimental = _make_feature_decorator(
    label="EXPERIMENTAL",
    default_message=(
        "This feature is experimental and may change or be removed in future"
        " versions without notice. It may introduce breaking changes at any"
        " time."
    ),
    bypass_env_var="ADK_SUPPRESS_EXPERIMENTAL_FEATURE_WARNINGS",
)
"""Marks a class or function as experimental: a UserWarning (once per message) on
use; ADK_SUPPRESS_EXPERIMENTAL_FEATURE_WARNINGS=true silences it."""
