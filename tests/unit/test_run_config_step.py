"""The RunConfig an activity gets (in its StepRef): only when it is not the default.

Runs on: process side (pure; the workflow's helper and the data converter).
"""

from __future__ import annotations

from google.genai import types

from adk.agents.run_config import RunConfig
from workflows.contracts import InvocationInput, SessionRef, StepRef, unless_default
from workflows.converter import data_converter


def _round_trip(value: object, type_hint: type) -> object:
    converter = data_converter.payload_converter
    payload = converter.to_payloads([value])
    return converter.from_payloads(payload, [type_hint])[0]


def _invocation(run_config: RunConfig) -> InvocationInput:
    session = SessionRef(app_name="a", user_id="u", session_id="s")
    return InvocationInput(session=session, invocation_id="e-1", run_config=run_config)


def test_the_default_as_the_workflow_receives_it_is_not_sent() -> None:
    received = _round_trip(_invocation(RunConfig()), InvocationInput)
    assert isinstance(received, InvocationInput)
    assert unless_default(received.run_config) is None


def test_a_run_config_that_matters_reaches_the_step_whole() -> None:
    context = [types.Content(role="user", parts=[types.Part(text="gold plan")])]
    run_config = RunConfig(
        labels={"team": "b"},
        model_input_context=context,
        include_thoughts_from_other_agents=True,
    )
    received = _round_trip(_invocation(run_config), InvocationInput)
    assert isinstance(received, InvocationInput)
    sent = unless_default(received.run_config)
    ref = StepRef(session=received.session, invocation_id="e-1", agent_name="r", run_config=sent)
    step = _round_trip(ref, StepRef)
    assert isinstance(step, StepRef)
    assert step.run_config == run_config
