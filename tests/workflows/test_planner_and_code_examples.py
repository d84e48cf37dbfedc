"""The planner and code-execution example apps run on a worker, offline: each one's
invocation goes through the worker that `load_app` serves, as `python -m worker
examples/<app>` would, with the example's own offline model.

Runs on: test process, against the session's local Temporal. What the planners and
the code executor do to requests and events is compared with google-adk 2.13 in
tests/differential/cases/planners.py and code_execution_built_in.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from workflows import names

from .helpers import turn

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples pick Gemini when a key is set: these runs are the offline path."""
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI"):
        monkeypatch.delenv(name, raising=False)


async def _run_example(temporal_env: Any, example: str, text: str) -> tuple[list[Any], list[str]]:
    """One turn of the example's app; its events and the activities the workflow ran."""
    from adk.runners import Runner
    from worker import load_app

    app = load_app(str(REPO / "examples" / example))
    async with Runner(app=app, temporal_client=temporal_env.client) as runner:
        await runner.session_service.create_session(
            app_name=example, user_id="u1", session_id=example
        )
        events = await turn(runner, text, session=example)
        history = await temporal_env.client.get_workflow_handle(
            names.invocation_workflow_id(example, "u1", example)
        ).fetch_history()
    summaries = [
        e.user_metadata.summary.data.decode()
        for e in history.events
        if e.HasField("activity_task_scheduled_event_attributes")
    ]
    return events, summaries


async def test_the_trip_planner_plans_looks_up_and_answers(temporal_env: Any) -> None:
    events, summaries = await _run_example(
        temporal_env, "trip_planner", "How long from Paris to Lyon?"
    )
    plan, response, answer = events[1:]
    thought, call = plan.content.parts
    assert thought.thought and "1. Look up the road distance." in thought.text  # tags removed
    assert call.function_call.name == "get_distance"
    assert response.get_function_responses()[0].response["km"] == 465
    reasoning, final = answer.content.parts
    assert reasoning.thought and "465 km at 90 km/h" in reasoning.text
    assert not final.thought and final.text == "Paris to Lyon is 465 km: about 5.2 hours by car."
    assert answer.is_final_response()
    assert sum("planner PlanReActPlanner" in s for s in summaries) == 2  # two model steps
    assert sum(s.startswith('"tool get_distance') for s in summaries) == 1


async def test_the_calculator_keeps_the_models_code_and_its_result(temporal_env: Any) -> None:
    events, summaries = await _run_example(
        temporal_env, "calculator", "What is the sum of the squares of 1 to 10?"
    )
    executor_event, answer = events[1:]
    assert executor_event.author == "calculator" and executor_event.content is None
    thought, code, result, text = answer.content.parts
    assert thought.thought
    assert "sum(n * n" in code.executable_code.code
    assert result.code_execution_result.output == "385\n"
    assert text.text == "The sum of the squares of 1 to 10 is 385."
    expected = "planner BuiltInPlanner · code BuiltInCodeExecutor"
    assert len(summaries) == 1 and expected in summaries[0]  # the model step; no code here
