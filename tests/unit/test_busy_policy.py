"""The busy policy's pure parts: the App option, and how an ended invocation that
handed its workflow over reaches its sender (client/_busy.py)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from temporalio.client import WorkflowFailureError

from adk import Agent
from adk.apps import App
from client import InvocationFailedError, InvocationInterruptedError
from client._busy import _ended
from client._errors import invocation_error
from workflows.contracts import EndedInvocation, InvocationResult
from workflows.errors import RaisedError


def test_the_app_option_defaults_to_reject_and_refuses_other_values():
    agent = Agent(name="a", model="gemini-2.5-flash")
    assert App(name="x", root_agent=agent).busy_policy == "reject"
    assert App(name="x", root_agent=agent, busy_policy="interrupt").busy_policy == "interrupt"
    with pytest.raises(ValidationError, match="'reject', 'queue', 'interrupt', not 'later'"):
        App(name="x", root_agent=agent, busy_policy="later")  # type: ignore[arg-type]


def test_a_completed_invocation_gives_its_result():
    result = InvocationResult(invocation_id="e-1", final_text="hi")
    assert (
        _ended(EndedInvocation(invocation_id="e-1", status="completed", result=result), "w")
        == result
    )


def test_a_failed_invocation_raises_the_apps_own_exception_as_a_failed_run_would():
    ended = EndedInvocation(
        invocation_id="e-1",
        status="failed",
        error_type="KeyError",
        error_message="KeyError while calling tool t of agent a: 'k'",
        raised=RaisedError.of(KeyError("k")),
    )
    with pytest.raises(WorkflowFailureError) as failure:
        _ended(ended, "w")
    rebuilt = invocation_error(failure.value, None)
    assert type(rebuilt) is KeyError and str(rebuilt) == "'k'"


def test_a_cancelled_invocation_is_a_failure_with_its_reason():
    ended = EndedInvocation(
        invocation_id="e-1", status="cancelled", error_type="CancelledError", error_message="gone"
    )
    with pytest.raises(WorkflowFailureError) as failure:
        _ended(ended, "w")
    rebuilt = invocation_error(failure.value, None)
    assert isinstance(rebuilt, InvocationFailedError) and "gone" in str(rebuilt)


def test_an_interrupted_invocation_names_the_one_that_interrupted_it():
    ended = EndedInvocation(invocation_id="e-1", status="interrupted", interrupted_by="e-2")
    with pytest.raises(InvocationInterruptedError, match="by a newer message \\(invocation e-2\\)"):
        _ended(ended, "w")
