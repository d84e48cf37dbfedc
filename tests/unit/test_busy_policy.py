"""The busy policy's pure parts: the App option, and how an ended invocation that
handed its workflow over reaches its sender (client/_busy.py)."""

from __future__ import annotations

from typing import Any

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


def _input(invocation_id: str, session_id: str = "s") -> Any:
    from workflows.contracts import InvocationInput, SessionRef

    ref = SessionRef(app_name="a", user_id="u", session_id=session_id)
    return InvocationInput(session=ref, invocation_id=invocation_id)


@pytest.mark.parametrize(
    ("policy", "status", "done", "refusal"),
    [
        ("reject", "running", False, "SessionBusy"),
        ("reject", "running", True, "InvocationEnded"),  # finishing: start anew, not busy
        ("queue", "waiting", False, "SessionBusy"),  # a waiting invocation: the resume path's
        ("interrupt", "waiting", False, "SessionBusy"),
        ("queue", "running", False, None),
        ("interrupt", "running", True, None),  # taken: the finishing run hands over to it
        (None, "running", False, None),  # policy unknown until begin: the handler waits
    ],
)
def test_the_submit_validator_refuses_by_policy_and_status(policy, status, done, refusal):
    from temporalio.exceptions import ApplicationError

    from workflows._busy import HeldMessages

    held = HeldMessages(_input("e-1"))
    held.policy = policy
    if refusal is None:
        held.check(_input("e-2"), status, done)
        return
    with pytest.raises(ApplicationError) as refused:
        held.check(_input("e-2"), status, done)
    assert refused.value.type == refusal


def test_the_submit_validator_takes_a_resend_and_refuses_another_session():
    from temporalio.exceptions import ApplicationError

    from workflows._busy import HeldMessages

    held = HeldMessages(_input("e-1"))
    held.policy = "reject"
    held.queue.append(_input("e-2"))  # (taken before the policy said reject: a redeploy)
    held.check(_input("e-2"), "running")  # a resend of a held one: the same answer
    with pytest.raises(ApplicationError, match="another session"):
        held.check(_input("e-3", session_id="other"), "running")
