"""Plugins on a real Temporal: their run hooks are activities named in the Web UI, a
plugin's state lives in the worker's process across invocations, and the Runner
closes the plugins when it closes.

Runs on: test process, against the session's local Temporal (each hook's effect on a
run is compared with google-adk 2.13 in tests/differential/cases/plugin_*.py).
"""

from __future__ import annotations

from pathlib import Path

from adk import Agent
from adk.plugins import BasePlugin
from adk.testing import MockModel
from workflows import names

from .helpers import runner_for, turn

REPO = Path(__file__).resolve().parents[2]


class Counting(BasePlugin):
    def __init__(self) -> None:
        super().__init__("counting")
        self.runs = 0
        self.closed = False

    async def after_run_callback(self, *, invocation_context) -> None:
        self.runs += 1

    async def close(self) -> None:
        self.closed = True


async def test_run_hooks_are_named_activities_and_plugins_close_with_the_runner(temporal_env):
    plugin = Counting()
    agent = Agent(name="root", model=MockModel.create(["one", "two"]))
    async with runner_for(temporal_env, agent, plugins=[plugin]) as runner:
        await turn(runner, "first")
        await turn(runner, "second")
        assert plugin.runs == 2  # one object, in the worker's process, across invocations
        assert not plugin.closed  # not after a run
        history = await temporal_env.client.get_workflow_handle(
            names.invocation_workflow_id("test_app", "u1", "s1")
        ).fetch_history()
    assert plugin.closed
    scheduled = [
        e.user_metadata.summary.data.decode()
        for e in history.events
        if e.HasField("activity_task_scheduled_event_attributes")
    ]
    assert scheduled[-1] == '"plugins: after_run_callback · root"'
    # no agent hook, no error hook: no agent-callback step, no notification activity
    assert not any("agent_callback" in s or "error" in s for s in scheduled)


async def test_the_inventory_example_recovers_from_a_failed_lookup(temporal_env):
    """examples/inventory: the lookup of "widgets" fails, ReflectAndRetry hands the model
    guidance instead of failing the run, the model retries with "widget"."""
    from adk.runners import Runner
    from worker import load_app

    app = load_app(str(REPO / "examples" / "inventory"))
    async with Runner(app=app, temporal_client=temporal_env.client) as runner:
        await runner.session_service.create_session(
            app_name="inventory", user_id="u1", session_id="s1"
        )
        events = await turn(runner, "How many widgets?")
        session = await runner.session_service.get_session(
            app_name="inventory", user_id="u1", session_id="s1"
        )
    responses = [r.response for e in events for r in e.get_function_responses()]
    assert responses[0]["response_type"] == "ERROR_HANDLED_BY_REFLECT_AND_RETRY_PLUGIN"
    assert "no item named 'widgets'" in responses[0]["error_details"]
    assert responses[1] == {"item": "widget", "in_stock": 12}
    assert events[-1].content.parts[0].text == "We have 12 widget(s) in stock."
    assert session is not None and session.state["user:tool_calls"] == 2


async def test_a_planner_and_a_code_executor_are_named_in_the_model_steps_summary(temporal_env):
    from adk.code_executors import BuiltInCodeExecutor
    from adk.planners import PlanReActPlanner

    agent = Agent(
        name="root",
        model=MockModel.create(["/*FINAL_ANSWER*/done"], model="gemini-2.5-flash"),
        planner=PlanReActPlanner(),
        code_executor=BuiltInCodeExecutor(),
    )
    async with runner_for(temporal_env, agent) as runner:
        await turn(runner, "go", session="planned")
        history = await temporal_env.client.get_workflow_handle(
            names.invocation_workflow_id("test_app", "u1", "planned")
        ).fetch_history()
    summaries = [
        e.user_metadata.summary.data.decode()
        for e in history.events
        if e.HasField("activity_task_scheduled_event_attributes")
    ]
    expected = "model gemini-2.5-flash · step 1 · root · planner PlanReActPlanner · code BuiltInCodeExecutor"
    assert summaries == [f'"{expected}"']
