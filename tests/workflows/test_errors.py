"""Errors as google-adk 2.13 raises them: the same exception leaves run_async, after
the same events were recorded; errors no retry can fix fail at once; nothing loops."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncGenerator
from datetime import timedelta
from typing import Any

import pydantic
import pytest
from temporalio import activity, workflow
from temporalio.client import WorkflowFailureError
from temporalio.exceptions import ApplicationError
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from adk import ActivityOptions, Agent, SequentialAgent
from adk.agents.invocation_context import LlmCallsLimitExceededError
from adk.agents.run_config import RunConfig
from adk.models.base_llm import BaseLlm
from adk.models.llm_request import LlmRequest
from adk.models.llm_response import LlmResponse
from adk.runners import Runner
from adk.testing import MockModel
from adk.tools import AgentTool, ToolContext
from workflows import names
from workflows.contracts import InvocationStatus

from .helpers import call, runner_for, simplify, turn, user_text


class ToolBroke(Exception):
    """An app's own exception class (importable by the caller)."""


def broken(x: int) -> dict:
    """Always fails."""
    raise KeyError(f"no entry {x}")


def broken_own(x: int) -> dict:
    """Fails with the app's own class."""
    raise ToolBroke("own", x)


def note(x: int, tool_context: ToolContext) -> dict:
    """Writes state, then succeeds."""
    tool_context.state["noted"] = x
    return {"noted": x}


async def failed_turn(
    runner: Runner, expected: type[BaseException], text: str = "go", **kw: Any
) -> tuple[BaseException, list[Any]]:
    """Run a turn that must raise `expected`; the exception and the turn's recorded events."""
    with pytest.raises(expected) as info:
        async for _ in runner.run_async(
            user_id="u1", session_id="s1", new_message=user_text(text), **kw
        ):
            pass
    recorded = [
        e
        for _, e in await runner.session_service.list_events(
            app_name=runner.app_name, user_id="u1", session_id="s1"
        )
    ]
    return info.value, recorded


def errors(events: list[Any]) -> list[tuple[str, str | None, str | None]]:
    return [(e.author, e.error_code, e.error_message) for e in events if e.error_code]


async def test_a_tool_exception_leaves_run_async_as_itself_after_adks_events(temporal_env):
    agent = Agent(name="a", model=MockModel.create([call("broken", x=1), "never"]), tools=[broken])
    async with runner_for(temporal_env, agent) as runner:
        error, events = await failed_turn(runner, KeyError)
    assert type(error) is KeyError and str(error) == "'no entry 1'"
    # 2.13: the user's message, the model's call, an error event; no response, no retry
    assert simplify(events) == [("user", "go"), ("a", ("call", "broken", {"x": 1}))]
    assert errors(events) == [("a", "KeyError", "'no entry 1'")]
    # the Web UI shows a typed, non-retryable failure that says what happened
    handle = temporal_env.client.get_workflow_handle(
        names.invocation_workflow_id("test_app", "u1", "s1")
    )
    with pytest.raises(WorkflowFailureError) as info:
        await handle.result()
    failure = info.value.cause
    assert isinstance(failure, ApplicationError) and failure.non_retryable
    assert failure.type == "KeyError"
    assert failure.message == "KeyError while calling tool broken of agent a: 'no entry 1'"


async def test_the_apps_own_exception_class_comes_back(temporal_env):
    agent = Agent(
        name="a", model=MockModel.create([call("broken_own", x=2), "never"]), tools=[broken_own]
    )
    async with runner_for(temporal_env, agent) as runner:
        error, _ = await failed_turn(runner, ToolBroke)
    assert error.args == ("own", 2)


async def test_on_tool_error_callback_turns_the_exception_into_a_result(temporal_env):
    def handle(tool, args, tool_context, error):
        return {"handled": str(error)}

    model = MockModel.create([call("broken", x=1), "recovered"])
    agent = Agent(name="a", model=model, tools=[broken], on_tool_error_callback=handle)
    async with runner_for(temporal_env, agent) as runner:
        error = None
        async for event in runner.run_async(
            user_id="u1", session_id="s1", new_message=user_text("go")
        ):
            error = error or event.error_code
    assert error is None
    assert model.requests[-1].contents[-1].parts[0].function_response.response == {
        "handled": "'no entry 1'"
    }


async def test_a_failed_parallel_call_keeps_the_finished_calls_results(temporal_env):
    model = MockModel.create([[call("note", x=5), call("broken", x=1)], "never"])
    agent = Agent(name="a", model=model, tools=[note, broken])
    async with runner_for(temporal_env, agent) as runner:
        _, events = await failed_turn(runner, KeyError)
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert simplify(events)[3:] == [("a", ("response", "note", {"noted": 5}))]
    assert errors(events) == [("a", "KeyError", "'no entry 1'")]
    assert session is not None and session.state["noted"] == 5


async def test_llm_calls_limit_is_adks_exception_with_adks_message(temporal_env):
    model = MockModel.create([call("note", x=1), call("note", x=2), "never"])
    agent = Agent(name="a", model=model, tools=[note])
    async with runner_for(temporal_env, agent) as runner:
        error, events = await failed_turn(
            runner, LlmCallsLimitExceededError, run_config=RunConfig(max_llm_calls=1)
        )
    assert str(error) == "Max number of llm calls limit of `1` exceeded"
    assert errors(events) == [
        ("a", "LlmCallsLimitExceededError", "Max number of llm calls limit of `1` exceeded")
    ]


async def test_a_missing_template_variable_is_adks_key_error(temporal_env):
    agent = Agent(name="a", model=MockModel.create(["never"]), instruction="Hi {missing}")
    async with runner_for(temporal_env, agent) as runner:
        error, _ = await failed_turn(runner, KeyError)
    assert "missing" in str(error)


class Answer(pydantic.BaseModel):
    count: int


async def test_an_output_schema_violation_fails_at_once_as_pydantics_error(temporal_env):
    model = MockModel.create(['{"count": "many"}'])
    agent = Agent(name="a", model=model, output_schema=Answer, output_key="answer")
    async with runner_for(temporal_env, agent) as runner:
        started = time.monotonic()
        error, events = await failed_turn(runner, pydantic.ValidationError)
    assert time.monotonic() - started < 10  # not retried (8 attempts took about 2 minutes)
    assert "count" in str(error) and "Answer" in str(error)
    assert [e.error_code for e in events if e.author == "a"] == [
        "ValidationError"
    ]  # no model event


class FailingModel(BaseLlm):
    """A custom model whose own exception says nothing about being transient."""

    model: str = "failing"
    calls: int = 0

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.calls += 1
        raise ValueError("the model is misconfigured")
        yield  # pragma: no cover


async def test_a_custom_models_exception_fails_at_once_as_itself(temporal_env):
    model = FailingModel()
    agent = Agent(name="a", model=model)
    async with runner_for(temporal_env, agent) as runner:
        error, events = await failed_turn(runner, ValueError)
    assert str(error) == "the model is misconfigured" and model.calls == 1
    assert errors(events) == [("a", "ValueError", "the model is misconfigured")]


async def test_an_unknown_transfer_target_is_adks_value_error(temporal_env):
    model = MockModel.create([call("transfer_to_agent", agent_name="ghost"), "never"])
    helper = Agent(name="helper", model=MockModel.create(["hi"]))
    agent = Agent(name="a", model=model, sub_agents=[helper])
    async with runner_for(temporal_env, agent) as runner:
        error, events = await failed_turn(runner, ValueError)
    assert str(error) == "Transfer target agent 'ghost' not found."  # 2.13's text
    assert errors(events) == []  # raised after the agent's run: 2.13 records no error event


async def test_error_events_are_recorded_where_adk_records_them(temporal_env):
    """2.13: by a failing LLM agent run at the top, a transfer target's failure by the
    agent that transferred to it (differential case transfer_target_fails), none under
    a Sequential agent (nor by the shell agent itself)."""
    target = Agent(name="target", model=MockModel.create([call("broken", x=3)]), tools=[broken])
    root = Agent(
        name="root", model=MockModel.create([call("transfer_to_agent", agent_name="target")])
    )
    root.sub_agents = [target]
    target.parent_agent = root
    async with runner_for(temporal_env, root) as runner:
        _, events = await failed_turn(runner, KeyError)
    assert errors(events) == [("root", "KeyError", "'no entry 3'")]

    step = Agent(name="step", model=MockModel.create([call("broken", x=4)]), tools=[broken])
    pipeline = SequentialAgent(name="pipeline", sub_agents=[step])
    async with runner_for(temporal_env, pipeline) as runner:
        error, events = await failed_turn(runner, KeyError)
    assert str(error) == "'no entry 4'" and errors(events) == []


def later(tool_context: ToolContext) -> None:
    """A long-running job whose result comes later."""
    return None


async def test_a_long_running_tool_returning_none_waits_instead_of_looping(temporal_env):
    from adk.tools import LongRunningFunctionTool

    model = MockModel.create([call("later"), "waiting"])
    agent = Agent(name="a", model=model, tools=[LongRunningFunctionTool(later)])
    session = f"lr-{uuid.uuid4().hex[:8]}"
    handle = temporal_env.client.get_workflow_handle(
        names.invocation_workflow_id("test_app", "u1", session)
    )
    async with runner_for(temporal_env, agent) as runner:
        started = time.monotonic()
        try:
            events = [
                e
                async for e in runner.run_async(
                    user_id="u1", session_id=session, new_message=user_text("go")
                )
            ]
            status = await handle.query(names.QUERY_STATUS, result_type=InvocationStatus)
        finally:
            await handle.cancel()  # it waits for the result durably: end it here
    assert time.monotonic() - started < 10  # a workflow task failing in a loop never returns
    assert events[0].long_running_tool_ids  # the call, then the turn pauses for its result
    assert not any(e.error_code for e in events)
    assert [r.tool for r in status.pending] == ["later"]


# ── a payload that does not decode fails the invocation, never a task in a loop ──


class _Needs(pydantic.BaseModel):
    required: str


@activity.defn(name="test.bad_payload")
async def _bad_payload() -> dict:
    return {"other": 1}  # encodes fine, but is no _Needs


@workflow.defn(name="TestBadPayload")
class _BadPayloadWorkflow:
    @workflow.run
    async def run(self) -> str:
        result = await workflow.execute_activity(
            "test.bad_payload",
            result_type=_Needs,
            start_to_close_timeout=timedelta(seconds=10),
        )
        return result.required


async def test_a_payload_that_does_not_decode_fails_the_workflow_at_once(temporal_env):
    task_queue = f"bad-payload-{uuid.uuid4().hex[:8]}"
    async with Worker(
        temporal_env.client,
        task_queue=task_queue,
        workflows=[_BadPayloadWorkflow],
        activities=[_bad_payload],
        workflow_runner=UnsandboxedWorkflowRunner(),
    ):
        started = time.monotonic()
        with pytest.raises(WorkflowFailureError) as info:
            await temporal_env.client.execute_workflow(
                _BadPayloadWorkflow.run,
                id=f"bad-payload-{uuid.uuid4().hex}",
                task_queue=task_queue,
                execution_timeout=timedelta(seconds=60),
            )
    assert time.monotonic() - started < 10  # a failing workflow task retries every 10 s
    cause = info.value.cause
    assert isinstance(cause, ApplicationError) and cause.type == "PayloadDecodeError"
    assert cause.non_retryable and "_Needs" in cause.message and "required" in cause.message


async def test_a_tool_that_opted_into_retries_is_retried_before_it_fails(temporal_env):
    attempts: list[int] = []

    def flaky(x: int) -> dict:
        """Fails twice, then works."""
        attempts.append(x)
        if len(attempts) < 3:
            raise ConnectionError("try again")
        return {"x": x}

    retry = ActivityOptions(maximum_attempts=3, initial_interval=timedelta(milliseconds=50))
    model = MockModel.create([call("flaky", x=1), "done"])
    agent = Agent(name="a", model=model, tools=[flaky], tool_activity_options=retry)
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "go")
    assert attempts == [1, 1, 1]
    assert simplify(events)[-2:] == [("a", ("response", "flaky", {"x": 1})), ("a", "done")]


async def test_by_default_a_tool_exception_is_not_retried(temporal_env):
    attempts: list[int] = []

    def fragile(x: int) -> dict:
        """Fails once."""
        attempts.append(x)
        raise ConnectionError("down")

    agent = Agent(name="a", model=MockModel.create([call("fragile", x=1)]), tools=[fragile])
    async with runner_for(temporal_env, agent) as runner:
        error, _ = await failed_turn(runner, ConnectionError)
    assert str(error) == "down" and attempts == [1]


async def test_a_raising_agent_callback_fails_as_itself(temporal_env):
    def refuse(callback_context):
        raise RuntimeError("cb")

    agent = Agent(name="a", model=MockModel.create(["never"]), before_agent_callback=refuse)
    async with runner_for(temporal_env, agent) as runner:
        error, events = await failed_turn(runner, RuntimeError)
    assert str(error) == "cb" and errors(events) == [("a", "RuntimeError", "cb")]

    inner = Agent(name="inner", model=MockModel.create(["never"]))
    pipeline = SequentialAgent(name="pipeline", sub_agents=[inner], before_agent_callback=refuse)
    async with runner_for(temporal_env, pipeline) as runner:
        error, events = await failed_turn(runner, RuntimeError)
    assert str(error) == "cb" and errors(events) == []  # 2.13: none for a shell agent


class SilentModel(BaseLlm):
    """A custom model that yields no response at all."""

    model: str = "silent"
    calls: int = 0

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.calls += 1
        return
        yield  # pragma: no cover


async def test_a_model_answering_nothing_ends_its_agent_quietly(temporal_env):
    silent = SilentModel()
    then = Agent(name="then", model=MockModel.create(["then says"]))
    pipeline = SequentialAgent(name="p", sub_agents=[Agent(name="quiet", model=silent), then])
    async with runner_for(temporal_env, pipeline) as runner:
        events = await turn(runner, "go")
    # 2.13: no event, no error, no retry; the next step runs
    assert simplify(events) == [("user", "go"), ("then", "then says")] and silent.calls == 1


async def test_an_agent_tools_failure_goes_to_the_callers_on_tool_error_callbacks(temporal_env):
    seen: list[BaseException] = []

    def handle(tool, args, tool_context, error):
        seen.append(error)
        return {"handled": True}

    helper = Agent(name="helper", model=FailingModel())
    model = MockModel.create([call("helper", request="x"), "Sorry."])
    root = Agent(name="root", model=model, tools=[AgentTool(helper)], on_tool_error_callback=handle)
    async with runner_for(temporal_env, root) as runner:
        events = await turn(runner, "go")
    # 2.13: the callback gets the agent's own exception and its result is the response
    assert [(type(e), str(e)) for e in seen] == [(ValueError, "the model is misconfigured")]
    assert simplify(events)[2:] == [
        ("root", ("response", "helper", {"handled": True})),
        ("root", "Sorry."),
    ]

    helper = Agent(name="helper", model=FailingModel())
    model = MockModel.create([call("helper", request="x")])
    root = Agent(name="root", model=model, tools=[AgentTool(helper)])
    async with runner_for(temporal_env, root) as runner:
        error, events = await failed_turn(runner, ValueError)
    assert str(error) == "the model is misconfigured"
    assert errors(events) == [("root", "ValueError", "the model is misconfigured")]
