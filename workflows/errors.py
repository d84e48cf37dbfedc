"""How an exception raised by app code or an ADK rule crosses Temporal and reaches the caller.

Runs on: both sides (pure: no I/O). The activity (or the workflow, for the rules
it checks itself) describes the exception as a `RaisedError` and carries it in a
non-retryable ApplicationError whose type is the exception's class name and whose
message reads well in the Web UI. The workflow fails with that error in its cause
chain, and the client rebuilds the original exception from the description
(`rebuild`, process side), so `Runner.run_async` raises what google-adk raises.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import pydantic_core
from pydantic import BaseModel
from temporalio.exceptions import ApplicationError

RAISED_MARK = "adk_raised_error"
"""The key that marks an ApplicationError detail as a RaisedError."""


class RaisedError(BaseModel):
    """An exception as the caller must see it again: class, message, arguments."""

    module: str
    qualname: str
    message: str
    """str() of the exception."""
    args: list[Any] | None = None
    """The exception's args, when they are plain JSON values (rebuilds most classes)."""
    title: str | None = None
    """pydantic ValidationError: the model's title."""
    line_errors: list[dict[str, Any]] | None = None
    """pydantic ValidationError: its errors, to rebuild it with from_exception_data."""

    @property
    def name(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]

    @staticmethod
    def of(error: BaseException) -> RaisedError:
        cls = type(error)
        raised = RaisedError(
            module=cls.__module__, qualname=cls.__qualname__, message=str(error), args=_plain(error)
        )
        if isinstance(error, pydantic_core.ValidationError):
            raised.title = error.title
            raised.line_errors = _plain_value(error.errors(include_url=False))
        return raised

    def as_application_error(
        self, readable: str, *, retryable: bool = False, type: str | None = None
    ) -> ApplicationError:
        """The Temporal error that carries this one (non-retryable unless asked); its
        type is the class name unless told (the Web UI shows it)."""
        return ApplicationError(
            readable,
            {RAISED_MARK: self.model_dump(exclude_none=True)},
            type=type or self.name,
            non_retryable=not retryable,
        )


def raised_error(
    error: BaseException, readable: str, *, retryable: bool = False
) -> ApplicationError:
    """`error` as a non-retryable ApplicationError the client turns back into `error`."""
    return RaisedError.of(error).as_application_error(readable, retryable=retryable)


def adk_error(module: str, qualname: str, message: str) -> ApplicationError:
    """An ADK exception the workflow raises itself (its rules run here), e.g.
    LlmCallsLimitExceededError: the caller gets that class with ADK's message."""
    raised = RaisedError(module=module, qualname=qualname, message=message, args=[message])
    return raised.as_application_error(message)


def find_raised(error: BaseException | None) -> RaisedError | None:
    """The RaisedError carried in `error`'s cause chain (the innermost one)."""
    found = None
    while error is not None:
        if isinstance(error, ApplicationError):
            for detail in error.details:
                if isinstance(detail, dict) and isinstance(detail.get(RAISED_MARK), dict):
                    try:
                        found = RaisedError.model_validate(detail[RAISED_MARK])
                    except ValueError:  # (pydantic's ValidationError) not ours: ignore
                        continue
        error = error.__cause__
    return found


def _plain(error: BaseException) -> list[Any] | None:
    args = list(error.args)
    try:
        as_json = pydantic_core.to_jsonable_python(args)
    except pydantic_core.PydanticSerializationError:
        return None
    return args if as_json == args else None


def _plain_value(value: Any) -> Any:
    """JSON values; anything else (an exception in a ctx, a custom input) as its str."""
    return pydantic_core.to_jsonable_python(value, fallback=str)


def rebuild(raised: RaisedError) -> Exception | None:
    """An instance of the raised class whose str() is the original's, else None.

    Process side only (the client, and the tool activity giving an AgentTool's
    failure to on_tool_error callbacks); the workflow never calls it. Never
    raises: a class that does not rebuild cleanly gives None."""
    try:
        return _rebuild(raised)
    except Exception:
        return None


def _rebuild(raised: RaisedError) -> Exception | None:
    cls = _find_class(raised.module, raised.qualname)
    if cls is None:
        return None
    if raised.line_errors is not None and issubclass(cls, pydantic_core.ValidationError):
        # JSON input words some errors apart ("a valid array", not "a valid list")
        rebuilt = None
        for input_type in ("python", "json"):
            try:
                rebuilt = cls.from_exception_data(
                    raised.title or "",
                    raised.line_errors,  # type: ignore[arg-type]
                    input_type=input_type,
                )
            except Exception:  # an error type pydantic cannot rebuild: keep its text below
                break
            if str(rebuilt) == raised.message:
                return rebuilt
        if rebuilt is not None:
            return rebuilt
    attempts: list[tuple[Any, ...]] = [(raised.message,)]
    if raised.args is not None:
        attempts.insert(0, tuple(raised.args))
    for args in attempts:
        try:
            error = cls(*args)
        except Exception:
            continue
        if _str_or_none(error) == raised.message:
            return error
    try:  # a class whose constructor takes other arguments: its text, unconstructed
        error = cls.__new__(cls)
        BaseException.__init__(error, raised.message)
    except Exception:
        return None
    return error if _str_or_none(error) == raised.message else None


def _find_class(module_name: str, qualname: str) -> type[Exception] | None:
    """The class, from a module this process already loaded (or one of durable-adk's
    own `adk` modules): a name read from workflow history never makes the caller
    import (run) code it did not load itself, and no attribute hook runs: the
    qualname is looked up in the objects' own namespaces."""
    target: Any = sys.modules.get(module_name)
    if target is None and (module_name == "adk" or module_name.startswith("adk.")):
        try:
            target = importlib.import_module(module_name)
        except Exception:
            return None
    for part in qualname.split("."):
        try:
            target = vars(target).get(part)
        except TypeError:  # no namespace of its own
            return None
    # an Exception: never SystemExit, KeyboardInterrupt or a cancellation
    return target if isinstance(target, type) and issubclass(target, Exception) else None


def _str_or_none(error: BaseException) -> str | None:
    try:
        return str(error)
    except Exception:
        return None
