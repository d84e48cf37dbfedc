"""Model and tool callbacks, instructions and output_key, run inside the activities."""

from __future__ import annotations

import time

import pytest
from google.genai import types

from adk import Agent
from adk.agents.readonly_context import ReadonlyContext
from adk.models.llm_response import LlmResponse
from adk.testing import MockModel
from adk.tools import ToolContext

from .helpers import call, runner_for, simplify, turn

calls: list[str] = []


def get_weather(city: str) -> dict:
    """Weather in a city."""
    calls.append(city)
    return {"city": city, "temp_c": 18}


def text_response(text: str) -> LlmResponse:
    return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))


@pytest.fixture(autouse=True)
def clear_calls():
    calls.clear()


async def test_before_model_callback_response_skips_the_model_and_writes_state(temporal_env):
    def before_model(callback_context, llm_request):
        callback_context.state["cached"] = True
        return text_response("from cache")

    model = MockModel.create(["from model"])
    agent = Agent(name="a", model=model, before_model_callback=before_model)
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "hi")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert model.requests == []
    assert simplify(events) == [("user", "hi"), ("a", "from cache")]
    assert events[-1].actions.state_delta == {"cached": True}
    assert session is not None and session.state == {"cached": True}


async def test_after_model_callback_replaces_the_response(temporal_env):
    seen: list[str] = []

    async def after_model(callback_context, llm_response):
        seen.append(llm_response.content.parts[0].text)
        return text_response("replaced")

    model = MockModel.create(["original"])
    agent = Agent(name="a", model=model, after_model_callback=after_model)
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "hi")
    assert seen == ["original"]
    assert simplify(events) == [("user", "hi"), ("a", "replaced")]


async def test_before_tool_callback_dict_skips_the_tool(temporal_env):
    def before_tool(tool, args, tool_context):
        return {"stubbed": args["city"]}

    model = MockModel.create([call("get_weather", city="Paris"), "ok"])
    agent = Agent(name="a", model=model, tools=[get_weather], before_tool_callback=before_tool)
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "hi")
    assert calls == []
    assert simplify(events)[2] == ("a", ("response", "get_weather", {"stubbed": "Paris"}))


async def test_after_tool_callback_replaces_the_result(temporal_env):
    async def after_tool(tool, args, tool_context, tool_response):
        return {"wrapped": tool_response, "tool": tool.name}

    model = MockModel.create([call("get_weather", city="Oslo"), "ok"])
    agent = Agent(name="a", model=model, tools=[get_weather], after_tool_callback=after_tool)
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "hi")
    assert calls == ["Oslo"]
    assert simplify(events)[2] == (
        "a",
        (
            "response",
            "get_weather",
            {"wrapped": {"city": "Oslo", "temp_c": 18}, "tool": "get_weather"},
        ),
    )


def explode(x: int) -> dict:
    """Always fails."""
    raise RuntimeError(f"boom {x}")


async def test_on_tool_error_callback_provides_the_result(temporal_env):
    def on_error(tool, args, tool_context, error):
        return {"fallback": f"{tool.name}: {error}"}

    model = MockModel.create([call("explode", x=3), "ok"])
    agent = Agent(name="a", model=model, tools=[explode], on_tool_error_callback=on_error)
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "hi")
    assert simplify(events)[2:] == [
        ("a", ("response", "explode", {"fallback": "explode: boom 3"})),
        ("a", "ok"),
    ]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
async def test_sync_and_async_callbacks_all_run(temporal_env, is_async):
    order: list[str] = []

    def make(name, result=None):
        def sync_cb(*args, **kwargs):
            order.append(name)
            return result

        async def async_cb(*args, **kwargs):
            order.append(name)
            return result

        return async_cb if is_async else sync_cb

    model = MockModel.create([call("get_weather", city="Rome"), "done"])
    agent = Agent(
        name="a",
        model=model,
        tools=[get_weather],
        before_model_callback=[make("before_model")],
        after_model_callback=make("after_model"),
        before_tool_callback=make("before_tool"),
        after_tool_callback=[make("after_tool"), make("after_tool_2", {"last": True})],
    )
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "hi")
    assert order == [
        "before_model",
        "after_model",
        "before_tool",
        "after_tool",
        "after_tool_2",
        "before_model",
        "after_model",
    ]
    assert simplify(events)[2:] == [
        ("a", ("response", "get_weather", {"last": True})),
        ("a", "done"),
    ]


async def test_raising_callbacks_are_bugs_and_are_not_retried(temporal_env):
    def after_model(callback_context, llm_response):
        raise KeyError("oops")

    model = MockModel.create(["never shown"])
    agent = Agent(name="a", model=model, after_model_callback=after_model)
    async with runner_for(temporal_env, agent) as runner:
        started = time.monotonic()
        with pytest.raises(KeyError, match="oops"):  # google-adk 2.13: the callback's own
            await turn(runner, "hi")
    assert time.monotonic() - started < 5
    assert len(model.requests) == 1


async def test_raising_tool_callback_fails_the_invocation_as_itself_without_retries(
    temporal_env,
):
    def before_tool(tool, args, tool_context):
        raise ValueError("bad callback")

    model = MockModel.create([call("get_weather", city="Paris"), "ok"])
    agent = Agent(name="a", model=model, tools=[get_weather], before_tool_callback=before_tool)
    async with runner_for(temporal_env, agent) as runner:
        started = time.monotonic()
        with pytest.raises(ValueError, match="^bad callback$"):  # google-adk 2.13
            await turn(runner, "hi")
        events = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert time.monotonic() - started < 5
    assert calls == []
    assert events is not None
    assert [(e.error_code, e.error_message) for e in events.events if e.error_code] == [
        ("ValueError", "bad callback")
    ]


async def test_instruction_provider_is_not_templated_and_gets_the_state(temporal_env):
    contexts: list[ReadonlyContext] = []

    async def provider(ctx: ReadonlyContext) -> str:
        contexts.append(ctx)
        return f'Reply as JSON like {{"name": "{ctx.state["name"]}"}}; keep {{missing}}.'

    model = MockModel.create(["ok"])
    agent = Agent(name="a", model=model, instruction=provider)
    async with runner_for(temporal_env, agent) as runner:
        await turn(runner, "hi", state_delta={"name": "Ada"})
    assert isinstance(contexts[0], ReadonlyContext)
    assert contexts[0].agent_name == "a"
    assert model.requests[0].config.system_instruction.startswith(
        'Reply as JSON like {"name": "Ada"}; keep {missing}.\n\n'
    )


async def test_identity_instruction_follows_the_agent_instruction(temporal_env):
    model = MockModel.create(["ok"])
    agent = Agent(name="helper", description="Helps.", model=model, instruction="Be {tone}.")
    async with runner_for(temporal_env, agent) as runner:
        await turn(runner, "hi", state_delta={"tone": "brief"})
    assert model.requests[0].config.system_instruction == (
        'Be brief.\n\nYou are an agent. Your internal name is "helper".'
        ' The description about you is "Helps.".'
    )


async def test_output_key_saves_the_final_text(temporal_env):
    model = MockModel.create([call("get_weather", city="Paris"), "It is 18°C."])
    agent = Agent(name="a", model=model, tools=[get_weather], output_key="answer")
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "hi")
        session = await runner.session_service.get_session(
            app_name="test_app", user_id="u1", session_id="s1"
        )
    assert events[1].actions.state_delta == {}  # the function-call event is not final
    assert events[-1].actions.state_delta == {"answer": "It is 18°C."}
    assert session is not None and session.state == {"answer": "It is 18°C."}


async def test_tool_state_writes_are_visible_to_later_callbacks(temporal_env):
    def remember(city: str, tool_context: ToolContext) -> dict:
        """Remembers a city."""
        tool_context.state["city"] = city
        return {}

    seen: list[object] = []

    def before_model(callback_context, llm_request):
        seen.append(callback_context.state.get("city"))

    model = MockModel.create([call("remember", city="Lima"), "ok"])
    agent = Agent(name="a", model=model, tools=[remember], before_model_callback=before_model)
    async with runner_for(temporal_env, agent) as runner:
        await turn(runner, "hi")
    assert seen == [None, "Lima"]


async def test_an_unknown_tool_goes_through_before_and_error_callbacks_as_in_adk(temporal_env):
    seen: list[tuple[str, str]] = []

    def before(tool, args, tool_context):  # type: ignore[no-untyped-def]
        seen.append(("before", f"{tool.name}: {tool.description}"))
        return None

    def on_error(tool, args, tool_context, error):  # type: ignore[no-untyped-def]
        seen.append(("error", str(error).splitlines()[0]))
        return {"handled": True}

    def real_tool() -> dict:
        """A real tool."""
        return {}

    model = MockModel.create([call("ghost"), "ok"])
    agent = Agent(
        name="a",
        model=model,
        tools=[real_tool],
        before_tool_callback=before,
        on_tool_error_callback=on_error,
    )
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "go")
    assert seen == [("before", "ghost: Tool not found"), ("error", "Tool 'ghost' not found.")]
    assert events[2].get_function_responses()[0].response == {"handled": True}
