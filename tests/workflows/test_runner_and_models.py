"""The Runner with no setup (embedded dev server, sync run) and custom models by name."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import AsyncGenerator
from pathlib import Path

import pytest
from google.genai import types

from adk import Agent
from adk.agents import SequentialAgent
from adk.models import BaseLlm, LLMRegistry, LlmRequest, LlmResponse
from adk.testing import MockModel
from adk.tools import FunctionTool, ToolContext
from client import AgentClient, SessionBusyError

from .helpers import call, confirmation_answer, runner_for, simplify, turn

ROOT = Path(__file__).resolve().parents[2]


def test_a_plain_script_runs_with_no_setup(tmp_path):
    """`python my_agent.py`: the Runner starts a dev server and a worker itself."""
    script = tmp_path / "my_agent.py"
    script.write_text(
        textwrap.dedent(
            """
            from google.genai import types
            from adk import Agent, Runner
            from adk.sessions import InMemorySessionService
            from adk.testing import MockModel

            def shout(text: str) -> dict:
                \"\"\"Shouts.\"\"\"
                return {"loud": text.upper()}

            agent = Agent(
                name="shouter",
                model=MockModel.create(
                    [types.Part.from_function_call(name="shout", args={"text": "hi"}), "HI!"]
                ),
                tools=[shout],
            )

            if __name__ == "__main__":
                runner = Runner(agent=agent, app_name="demo", session_service=InMemorySessionService(),
                                auto_create_session=True)
                message = types.Content(role="user", parts=[types.Part(text="say hi")])
                for event in runner.run(user_id="u", session_id="s", new_message=message):
                    for part in event.content.parts:
                        print(event.author, part.text or part.function_call or part.function_response)
            """
        )
    )
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # the embedded dev server prints its banner to the same stdout: keep our lines
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith(("user ", "shouter "))]
    assert not any(ln.startswith("user ") for ln in lines)  # run() yields the agents' events
    assert lines[-1] == "shouter HI!"
    assert any("'loud': 'HI'" in line for line in lines)


class EchoLlm(BaseLlm):
    """A custom model: repeats the user's last words."""

    @classmethod
    def supported_models(cls) -> list[str]:
        return [r"echo-\d+"]

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        said = llm_request.contents[-1].parts[0].text  # type: ignore[index]
        text = f"{self.model} says: {said}"
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))


async def test_a_custom_model_resolves_by_name_through_the_registry(temporal_env):
    LLMRegistry.register(EchoLlm)
    agent = Agent(name="parrot", model="echo-7")
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "hello")
    assert simplify(events)[-1] == ("parrot", "echo-7 says: hello")


async def test_an_unknown_model_name_fails_fast_with_a_clear_error(temporal_env):
    from client import InvocationFailedError

    agent = Agent(name="lost", model="no-such-model-1")
    async with runner_for(temporal_env, agent) as runner:
        try:
            await turn(runner, "hello")
        except InvocationFailedError as error:
            message = str(error)
        else:
            raise AssertionError("expected a failure")
    assert "Model no-such-model-1 not found." in message
    assert "LLMRegistry" in message


async def test_a_model_class_we_lack_fails_fast_naming_it(temporal_env):
    from client import InvocationFailedError

    agent = Agent(name="poet", model="claude-sonnet-4-5")
    async with runner_for(temporal_env, agent) as runner:
        try:
            await turn(runner, "hello")
        except InvocationFailedError as error:
            message = str(error)
        else:
            raise AssertionError("expected a failure")
    assert "Model claude-sonnet-4-5 needs Claude (google.adk.models.anthropic_llm" in message
    assert "LLMRegistry" in message


def test_the_workflows_run_unsandboxed_unless_strict_is_asked(monkeypatch):
    from temporalio.worker import UnsandboxedWorkflowRunner
    from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner

    from worker._build import workflow_runner

    monkeypatch.delenv("DURABLE_ADK_WORKFLOW_SANDBOX", raising=False)
    assert isinstance(workflow_runner(), UnsandboxedWorkflowRunner)
    monkeypatch.setenv("DURABLE_ADK_WORKFLOW_SANDBOX", "Strict")
    strict = workflow_runner()
    assert isinstance(strict, SandboxedWorkflowRunner)
    # our workflow code is re-imported (so checked) in every run, not passed through
    assert "workflows" not in strict.restrictions.passthrough_modules
    monkeypatch.setenv("DURABLE_ADK_WORKFLOW_SANDBOX", "maybe")
    with pytest.raises(ValueError, match="off, strict"):
        workflow_runner()


async def test_an_agent_tree_runs_in_the_strict_sandbox(temporal_env):
    """The sandbox finds nothing to object to in the workflows: model, parallel tools,
    state, a sub-agent in a child workflow, and an answer from a human."""
    from worker._build import workflow_runner

    def double(x: int, tool_context: ToolContext) -> int:
        """Doubles."""
        tool_context.state["doubled"] = x
        return 2 * x

    first = Agent(
        name="calc",
        model=MockModel.create(
            [
                [
                    types.Part.from_function_call(name="double", args={"x": 2}),
                    types.Part.from_function_call(name="double", args={"x": 3}),
                ],
                "4 and 6",
            ]
        ),
        tools=[double],
    )
    second = Agent(
        name="checker",
        model=MockModel.create(
            [types.Part.from_function_call(name="approved_double", args={"x": 5}), "10, checked"]
        ),
        tools=[FunctionTool(double, require_confirmation=True)],
    )
    second.tools[0].name = "approved_double"  # type: ignore[union-attr]
    root = SequentialAgent(name="pipeline", sub_agents=[first, second])
    async with runner_for(
        temporal_env,
        root,
        worker_options={"workflow_runner": workflow_runner("strict")},
    ) as runner:
        paused = await turn(runner, "double things")
        asking = next(
            c
            for e in paused
            for c in e.get_function_calls()
            if c.name == "adk_request_confirmation"
        )
        events = [
            e
            async for e in runner.run_async(
                user_id="u1",
                session_id="s1",
                new_message=confirmation_answer(asking.id or "", True),
            )
        ]
    assert simplify(paused)[1:4] == [
        ("calc", ("call", "double", {"x": 2})),
        ("calc", ("call", "double", {"x": 3})),
        ("calc", ("response", "double", {"result": 4})),
    ]
    assert simplify(events)[-1] == ("checker", "10, checked")


async def test_without_auto_create_a_missing_session_is_an_error(temporal_env):
    from adk.runners import Runner
    from adk.sessions import InMemorySessionService

    model = MockModel.create(["hello"])
    store = InMemorySessionService()
    async with Runner(
        app_name="test_app",
        agent=Agent(name="a", model=model),
        session_service=store,
        temporal_client=temporal_env.client,
    ) as runner:
        with pytest.raises(ValueError, match="Session not found: nope"):
            async for _ in runner.run_async(
                user_id="u1",
                session_id="nope",
                new_message=types.Content(role="user", parts=[types.Part(text="hi")]),
            ):
                pass
        assert await store.get_session(app_name="test_app", user_id="u1", session_id="nope") is None
        await store.create_session(app_name="test_app", user_id="u1", session_id="there")
        events = [
            e
            async for e in runner.run_async(
                user_id="u1",
                session_id="there",
                new_message=types.Content(role="user", parts=[types.Part(text="hi")]),
            )
        ]
    assert [e.content.parts[0].text for e in events if e.content and e.content.parts] == ["hello"]


async def _all(events: AsyncGenerator) -> list:
    return [event async for event in events]


async def test_run_async_needs_a_message_or_an_invocation_id(temporal_env):
    """google-adk 2.13 (an LlmAgent root): an invocation id with no message runs the agent
    again under that id, whether it ran before or not (differential case
    resume_without_message covers a resumable app)."""
    agent = Agent(name="greeter", model=MockModel.create(["hi", "again", "anew"]))
    async with runner_for(temporal_env, agent) as runner:
        with pytest.raises(ValueError, match="requires either a new_message or an invocation_id"):
            await _all(runner.run_async(user_id="u1", session_id="r1"))
        events = await turn(runner, "hello", session="r1")
        finished = events[0].invocation_id  # it has ended: the agent runs again
        again = await _all(runner.run_async(user_id="u1", session_id="r1", invocation_id=finished))
        assert [(e.invocation_id, e.content.parts[0].text) for e in again] == [(finished, "again")]
        anew = await _all(runner.run_async(user_id="u1", session_id="r1", invocation_id="e-nope"))
        assert [(e.invocation_id, e.content.parts[0].text) for e in anew] == [("e-nope", "anew")]
        stored = await runner.session_service.get_session(
            app_name=runner.app_name, user_id="u1", session_id="r1"
        )
        assert [e.author for e in stored.events] == ["user", "greeter", "greeter", "greeter"]


async def test_an_invocation_id_alone_streams_the_running_invocation_from_now_on(
    temporal_env, monkeypatch
):
    started, release, attached = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def slow_lookup(city: str) -> dict:
        """Looks the city up, slowly."""
        started.set()
        await release.wait()
        return {"city": city, "sky": "clear"}

    attach = AgentClient.attach

    async def attach_and_tell(self: AgentClient, **ref: str):  # type: ignore[no-untyped-def]
        invocation = await attach(self, **ref)
        attached.set()
        return invocation

    monkeypatch.setattr(AgentClient, "attach", attach_and_tell)
    model = MockModel.create([call("slow_lookup", city="Oslo"), "Clear skies in Oslo."])
    agent = Agent(name="forecaster", model=model, tools=[slow_lookup])
    async with runner_for(temporal_env, agent) as runner:
        first = asyncio.ensure_future(turn(runner, "Oslo?", session="r2"))
        try:
            await asyncio.wait_for(started.wait(), 20)
            rows = await runner.session_service.list_events(
                app_name="test_app", user_id="u1", session_id="r2"
            )
            running = rows[0][1].invocation_id
            # another id: its run again would be a second invocation while this one runs
            with pytest.raises(SessionBusyError):
                await _all(runner.run_async(user_id="u1", session_id="r2", invocation_id="e-x"))
            second = asyncio.ensure_future(
                _all(runner.run_async(user_id="u1", session_id="r2", invocation_id=running))
            )
            await asyncio.wait_for(attached.wait(), 20)
        finally:
            release.set()
        whole = await asyncio.wait_for(first, 30)
        tail = await asyncio.wait_for(second, 30)
    assert simplify(whole) == [
        ("user", "Oslo?"),
        ("forecaster", ("call", "slow_lookup", {"city": "Oslo"})),
        ("forecaster", ("response", "slow_lookup", {"city": "Oslo", "sky": "clear"})),
        ("forecaster", "Clear skies in Oslo."),
    ]
    assert tail == whole[2:]  # what was recorded after it attached, the same events


async def test_breaking_at_the_final_response_then_the_next_message_at_once(temporal_env):
    """The docs' call_agent_async: `break` at the final response, next message at once.

    The invocation is still finishing (its after_agent_callback takes a while); the
    Runner's next message waits for it instead of raising SessionBusyError."""

    async def after_agent(callback_context):
        await asyncio.sleep(1.0)
        callback_context.state["turns_done"] = callback_context.state.get("turns_done", 0) + 1

    agent = Agent(
        name="chatty",
        model=MockModel.create(["one", "two"]),
        after_agent_callback=after_agent,
    )
    async with runner_for(temporal_env, agent) as runner:
        finals = []
        for text in ("first", "second"):
            message = types.Content(role="user", parts=[types.Part(text=text)])
            async for event in runner.run_async(user_id="u1", session_id="s1", new_message=message):
                if event.is_final_response():
                    finals.append(event.content.parts[0].text)
                    break
        assert finals == ["one", "two"]
        handle = temporal_env.client.get_workflow_handle("adk:test_app:u1:s1")
        await handle.result()  # the second one runs to its end too
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
        assert session.state["turns_done"] == 2
        assert [e.author for e in session.events] == ["user", "chatty", "chatty"] * 2


async def test_breaking_out_of_a_resumed_turn_then_the_next_message(temporal_env):
    """The same after an approval: the resumed invocation's dropped stream is waited for."""

    async def after_agent(callback_context):
        await asyncio.sleep(1.0)

    def double(x: int) -> int:
        """Doubles x."""
        return 2 * x

    agent = Agent(
        name="checker",
        model=MockModel.create([call("double", x=5), "10", "bye"]),
        tools=[FunctionTool(double, require_confirmation=True)],
        after_agent_callback=after_agent,
    )
    async with runner_for(temporal_env, agent) as runner:
        paused = await turn(runner, "double 5")
        asking = next(
            c
            for e in paused
            for c in e.get_function_calls()
            if c.name == "adk_request_confirmation"
        )
        answer = confirmation_answer(asking.id or "", True)
        async for event in runner.run_async(user_id="u1", session_id="s1", new_message=answer):
            if event.is_final_response():
                break
        events = await turn(runner, "next")
    assert simplify(events)[-1] == ("checker", "bye")
