"""The exception a caller gets back from a failed invocation: rebuilt from its description."""

from __future__ import annotations

import pydantic
import pytest
from google.genai import errors as genai_errors
from temporalio.exceptions import ActivityError, ApplicationError, RetryState

from workflows.errors import RaisedError, adk_error, find_raised, raised_error, rebuild


class NeedsTwo(Exception):
    def __init__(self, a: str, b: int) -> None:
        super().__init__(f"{a}/{b}")


class Model(pydantic.BaseModel):
    n: int


def round_trip(error: BaseException) -> BaseException | None:
    described = RaisedError.model_validate_json(RaisedError.of(error).model_dump_json())
    return rebuild(described)


@pytest.mark.parametrize(
    "error",
    [
        ValueError("bad"),
        KeyError("key"),
        TypeError("t", 1),
        ConnectionError("down"),
        RuntimeError(),
    ],
)
def test_builtins_come_back_with_class_args_and_text(error: BaseException) -> None:
    back = round_trip(error)
    assert type(back) is type(error) and back.args == error.args and str(back) == str(error)


def test_a_class_with_another_constructor_keeps_its_text() -> None:
    back = round_trip(NeedsTwo("x", 2))
    assert type(back) is NeedsTwo and str(back) == "x/2"


def test_pydantic_validation_error_is_rebuilt_with_its_errors() -> None:
    with pytest.raises(pydantic.ValidationError) as info:
        Model.model_validate_json('{"n": "many"}')
    back = round_trip(info.value)
    assert isinstance(back, pydantic.ValidationError)
    assert str(back) == str(info.value) and back.errors()[0]["loc"] == ("n",)


def test_a_validation_error_from_json_keeps_its_json_wording() -> None:
    # validate_json says "a valid array" where validate_python says "a valid list"
    with pytest.raises(pydantic.ValidationError) as info:
        pydantic.TypeAdapter(list[int]).validate_json('{"a": 1}')
    rebuilt = rebuild(RaisedError.of(info.value))
    assert isinstance(rebuilt, pydantic.ValidationError)
    assert "a valid array" in str(info.value) and str(rebuilt) == str(info.value)


def test_a_genai_api_error_is_rebuilt_from_code_and_response() -> None:
    error = genai_errors.ClientError(400, {"error": {"code": 400, "message": "bad", "status": "X"}})
    described = RaisedError.of(error)
    described.args = [error.code, error.details]  # as the model step describes it
    back = rebuild(described)
    assert type(back) is genai_errors.ClientError and str(back) == str(error)


def test_a_class_the_caller_cannot_import_is_none() -> None:
    described = RaisedError(module="not_a_module_here", qualname="Gone", message="m")
    assert rebuild(described) is None


def test_the_description_is_found_through_the_cause_chain() -> None:
    inner = raised_error(KeyError("k"), "KeyError while calling tool t of agent a: 'k'")
    activity = ActivityError(
        "Activity task failed",
        scheduled_event_id=1,
        started_event_id=2,
        identity="w",
        activity_type="t",
        activity_id="1",
        retry_state=RetryState.NON_RETRYABLE_FAILURE,
    )
    activity.__cause__ = inner
    outer = ApplicationError("Agent a failed", type="KeyError", non_retryable=True)
    outer.__cause__ = activity
    found = find_raised(outer)
    assert found is not None and found.qualname == "KeyError" and found.message == "'k'"
    assert inner.non_retryable and inner.type == "KeyError"


def test_adk_errors_raised_by_the_workflow_rebuild_as_adks_class() -> None:
    from adk.agents.invocation_context import LlmCallsLimitExceededError

    error = adk_error(
        "adk.agents.invocation_context", "LlmCallsLimitExceededError", "Max number of llm calls"
    )
    found = find_raised(error)
    assert found is not None
    back = rebuild(found)
    assert type(back) is LlmCallsLimitExceededError and str(back) == "Max number of llm calls"


def test_every_contract_field_that_may_be_none_has_a_default() -> None:
    """The converter omits None fields: a required Optional field would not decode
    (a long-running tool's `response=None` once failed the workflow task forever)."""
    import types as pytypes
    import typing

    from workflows import contracts

    missing = []
    for name, model in vars(contracts).items():
        if not (isinstance(model, type) and issubclass(model, pydantic.BaseModel)):
            continue
        for field, info in model.model_fields.items():
            annotation = info.annotation
            optional = typing.get_origin(annotation) in (typing.Union, pytypes.UnionType) and (
                type(None) in typing.get_args(annotation)
            )
            if optional and info.is_required():
                missing.append(f"{name}.{field}")
    assert missing == []


def test_a_name_from_history_never_imports_a_module() -> None:
    import sys

    sys.modules.pop("json.tool", None)
    raised = RaisedError(module="json.tool", qualname="main", message="x", args=["x"])
    assert rebuild(raised) is None
    assert "json.tool" not in sys.modules


def test_only_exceptions_are_rebuilt_never_exits_or_cancellations() -> None:
    for module, qualname in [("builtins", "SystemExit"), ("asyncio", "CancelledError")]:
        raised = RaisedError(module=module, qualname=qualname, message="x", args=["x"])
        assert rebuild(raised) is None


def test_a_class_that_does_not_rebuild_cleanly_gives_none() -> None:
    class Unprintable(Exception):
        def __str__(self) -> str:
            raise AttributeError("no")

    sys_module = __import__("sys").modules[__name__]
    sys_module.Unprintable = Unprintable  # type: ignore[attr-defined]
    try:
        raised = RaisedError(module=__name__, qualname="Unprintable", message="x", args=["x"])
        assert rebuild(raised) is None
    finally:
        del sys_module.Unprintable  # type: ignore[attr-defined]


def test_a_malformed_description_in_a_failure_is_ignored() -> None:
    from temporalio.exceptions import ApplicationError

    from workflows.errors import RAISED_MARK, find_raised

    error = ApplicationError("boom", {RAISED_MARK: {"qualname": "X"}})
    assert find_raised(error) is None
