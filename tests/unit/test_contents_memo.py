"""Tests for the contents memo: a step's contents built from the step before's.

Runs on: test process only. Every reuse must give what the whole pass gives; the
cases below are the ones where it must not reuse (an answer to an earlier call, a
rewind, a changed earlier event), and the rule that the shared contents never change.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from google.genai import types

from adk.agents import InvocationContext, LlmAgent
from adk.events import Event, EventActions
from adk.events.event_actions import EventCompaction
from adk.flows.llm_flows import contents
from adk.flows.llm_flows._contents_memo import CHECK_ENV, ContentsMemo
from adk.flows.llm_flows.contents import arrange, get_contents, prepared_contents
from adk.models.llm_request import LlmRequest
from adk.sessions import Session

if not LlmAgent.__pydantic_complete__:  # workaround: llm_agent.py's forward refs are unresolved
    from adk.tools.base_tool import BaseTool
    from adk.tools.tool_context import ToolContext

    LlmAgent.model_rebuild(_types_namespace={"BaseTool": BaseTool, "ToolContext": ToolContext})

ME = "me"


@pytest.fixture(autouse=True)
def _unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests compare with the whole pass themselves (the suite's check is off)."""
    monkeypatch.delenv(CHECK_ENV, raising=False)


def _text(author: str, text: str, **kwargs: Any) -> Event:
    role = "user" if author == "user" else "model"
    return Event(
        author=author, content=types.Content(role=role, parts=[types.Part(text=text)]), **kwargs
    )


def _call(id: str, **kwargs: Any) -> Event:
    part = types.Part(function_call=types.FunctionCall(id=id, name="lookup", args={"q": id}))
    return Event(author=ME, content=types.Content(role="model", parts=[part]), **kwargs)


def _response(id: str, result: str, author: str = ME) -> Event:
    part = types.Part(
        function_response=types.FunctionResponse(id=id, name="lookup", response={"r": result})
    )
    return Event(author=author, content=types.Content(role="user", parts=[part]))


def _turn(n: int) -> list[Event]:
    return [
        _text("user", f"turn {n}"),
        _call(f"adk-{n}"),
        _response(f"adk-{n}", f"result {n}"),
        _text(ME, f"answer {n}"),
    ]


def _built(memo: ContentsMemo, events: list[Event]) -> list[types.Content]:
    return memo.contents(
        "key",
        events,
        functools.partial(arrange, None, agent_name=ME),
        functools.partial(prepared_contents, preserve_function_call_ids=False),
    )


def test_reuse_gives_the_whole_pass_and_builds_only_the_new_events() -> None:
    memo = ContentsMemo()
    events: list[Event] = []
    for n in range(5):
        user, call, response, answer = _turn(n)
        for step in ([user], [call, response], [answer]):  # what each model step sees
            events += step
            assert _built(memo, list(events)) == get_contents(None, events, ME)
    assert (memo.rebuilt, memo.reused) == (1, 14)


def test_equal_copies_of_earlier_events_are_reused() -> None:
    memo = ContentsMemo()
    events = _turn(0) + _turn(1)
    _built(memo, events)
    decoded = [Event.model_validate_json(e.model_dump_json()) for e in events[-3:]]
    again = [*events[:-3], *decoded, _text("user", "more")]
    assert _built(memo, again) == get_contents(None, again, ME)
    assert memo.reused == 1


def test_a_late_answer_to_an_earlier_call_is_built_whole() -> None:
    """A long-running call answered turns later: the answer moves back to its call."""
    memo = ContentsMemo()
    events = [
        _text("user", "start the job"),
        _call("adk-job", long_running_tool_ids={"adk-job"}),
        _response("adk-job", "pending"),
        _text(ME, "started"),
        *_turn(1),
    ]
    _built(memo, events)
    events.append(_response("adk-job", "done", author="user"))
    result = _built(memo, events)
    assert result == get_contents(None, events, ME)
    assert memo.reused == 0
    # the answer sits after its call, not at the end
    assert result[2].parts[0].function_response.response == {"r": "done"}


def test_a_changed_earlier_event_is_built_whole() -> None:
    memo = ContentsMemo()
    events = _turn(0) + _turn(1)
    _built(memo, events)
    changed = [*events[:1], _call("adk-0", branch=None), *events[2:]]
    changed[1].content.parts[0].function_call.args = {"q": "other"}  # type: ignore[union-attr]
    assert _built(memo, changed) == get_contents(None, changed, ME)
    assert memo.reused == 0


def test_a_rewind_is_built_whole() -> None:
    memo = ContentsMemo()
    first = [e.model_copy(update={"invocation_id": "i0"}) for e in _turn(0)]
    second = [e.model_copy(update={"invocation_id": "i1"}) for e in _turn(1)]
    events = first + second
    _built(memo, events)
    events.append(
        Event(
            author="user",
            invocation_id="i2",
            actions=EventActions(rewind_before_invocation_id="i1"),
        )
    )
    assert _built(memo, events) == get_contents(None, events, ME) == get_contents(None, first, ME)
    assert memo.reused == 0


def test_a_reused_call_id_is_built_whole() -> None:
    memo = ContentsMemo()
    events = _turn(0)
    _built(memo, events)
    events += [_text("user", "again"), _call("adk-0"), _response("adk-0", "second")]
    assert _built(memo, events) == get_contents(None, events, ME)
    assert memo.reused == 0


def test_a_memo_over_its_bound_forgets_the_oldest_session() -> None:
    memo = ContentsMemo(max_contents=10)
    events = _turn(0) + _turn(1)  # 8 contents: one session's fit, two do not
    for key in ("a", "b", "a"):
        memo.contents(
            key,
            events,
            functools.partial(arrange, None, agent_name=ME),
            functools.partial(prepared_contents, preserve_function_call_ids=False),
        )
    assert (memo.rebuilt, memo.reused) == (3, 0)


async def test_changing_a_request_in_place_leaves_the_next_request_as_built() -> None:
    """A callback may change the request's contents in place (google-adk hands it its
    own copies): once the request is made its own, the shared contents stay as built."""
    agent = LlmAgent(name=ME)
    session = Session(id="s-in-place", app_name="a", user_id="u", events=_turn(0))

    def request() -> LlmRequest:
        built = LlmRequest()
        ctx = InvocationContext(invocation_id="i", agent=agent, session=session)
        contents.process(ctx, agent, built)
        return built

    first = request()
    first._own_contents()
    first.contents[0].parts[0].text = "changed"  # type: ignore[index]
    session.events.append(_text("user", "next"))
    second = request()
    assert second.contents[0].parts[0].text == "turn 0"  # type: ignore[index]
    assert second.contents == get_contents(None, session.events, ME)
    # without a callback the request keeps the shared objects: nothing was copied
    third = request()
    assert all(a is b for a, b in zip(second.contents, third.contents, strict=True))


async def test_a_users_planner_or_tool_changing_contents_in_place_leaves_the_next_request_right():
    """Through the request pipeline: code of the user's that gets the request (a
    planner's build_planning_instruction, a tool's process_llm_request) may change
    contents in place; the next step's request is still built from the events."""
    from adk.flows.llm_flows.pipeline import build_llm_request
    from adk.planners import BasePlanner
    from adk.tools import BaseTool

    class Redacting(BasePlanner):
        def build_planning_instruction(self, readonly_context, llm_request):
            for content in llm_request.contents:
                for part in content.parts or []:
                    if part.text:
                        part.text = part.text.replace("turn", "[x]")
            return None

        def process_planning_response(self, callback_context, response_parts):
            return None

    class Stamping(BaseTool):
        async def process_llm_request(self, *, tool_context, llm_request):
            llm_request.contents[0].parts[0].text += " (stamped)"

    for agent in (
        LlmAgent(name=ME, planner=Redacting()),
        LlmAgent(name=ME, tools=[Stamping(name="stamp", description="d")]),
    ):
        session = Session(id=f"s-{type(agent.planner).__name__}", app_name="a", user_id="u")
        session.events.extend(_turn(0))
        ctx = InvocationContext(invocation_id="i", agent=agent, session=session)
        first = await build_llm_request(ctx, agent)
        session.events.append(_text("user", "next turn"))
        second = await build_llm_request(ctx, agent)
        fresh = LlmRequest()
        contents.process(ctx, agent, fresh)
        assert second.contents != first.contents
        assert [c.parts[0].text for c in fresh.contents][:1] == ["turn 0"]  # type: ignore[index]


async def test_context_filter_plugin_gives_a_users_filter_the_requests_own_contents():
    from adk.plugins.context_filter_plugin import ContextFilterPlugin

    def shout(contents):
        for content in contents:
            for part in content.parts or []:
                if part.text:
                    part.text = part.text.upper()
        return contents

    agent = LlmAgent(name=ME)
    session = Session(id="s-filter", app_name="a", user_id="u", events=_turn(0))
    ctx = InvocationContext(invocation_id="i", agent=agent, session=session)
    request = LlmRequest()
    contents.process(ctx, agent, request)
    request._contents_shared = True  # as the memo hands them out
    await ContextFilterPlugin(custom_filter=shout).before_model_callback(
        callback_context=None, llm_request=request
    )
    assert request.contents[0].parts[0].text == "TURN 0"  # type: ignore[index]
    again = LlmRequest()
    contents.process(ctx, agent, again)
    assert again.contents[0].parts[0].text == "turn 0"  # type: ignore[index]


def test_the_memo_bound_follows_the_event_cache_budget(monkeypatch: pytest.MonkeyPatch):
    # an entry keeps its events alive: one setting bounds both caches
    monkeypatch.setenv("DURABLE_ADK_EVENT_CACHE_MIB", "11")
    assert ContentsMemo().max_contents == 11 * 2**20 // (5 * 1024 + 512) == 2048
    monkeypatch.delenv("DURABLE_ADK_EVENT_CACHE_MIB")
    assert ContentsMemo().max_contents == 64 * 2**20 // (5 * 1024 + 512)
    assert ContentsMemo(max_contents=10).max_contents == 10


def test_shared_contents_are_the_events_own_except_where_ids_are_stripped() -> None:
    from adk.flows.llm_flows.contents import shared_contents

    events = [*_turn(1), _call("model-id-7"), _response("model-id-7", "kept")]
    arranged, _ = arrange(None, events, ME)
    shared = shared_contents(arranged, preserve_function_call_ids=False)
    assert shared == prepared_contents(arranged, preserve_function_call_ids=False)
    same = [content is event.content for content, event in zip(shared, events, strict=True)]
    # text and model-made ids: the event's own object; adk- ids: a new one, ids stripped
    assert same == [True, False, False, True, True, True]
    assert shared[1].parts[0].function_call.id is None
    assert shared[1].parts[0].function_call.args is events[1].content.parts[0].function_call.args
    assert events[1].content.parts[0].function_call.id == "adk-1"  # the event is unchanged
    assert events[2].content.parts[0].function_response.id == "adk-1"
    kept = shared_contents(arranged, preserve_function_call_ids=True)
    assert all(c is e.content for c, e in zip(kept, events, strict=True))


def _timed(events: list[Event], start: float) -> list[Event]:
    return [e.model_copy(update={"timestamp": start + i}) for i, e in enumerate(events)]


def _summary(start: float, end: float, text: str, at: float) -> Event:
    return Event(
        author="user",
        timestamp=at,
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=start,
                end_timestamp=end,
                compacted_content=types.Content(role="model", parts=[types.Part(text=text)]),
            )
        ),
    )


def test_a_compaction_summary_is_built_whole_and_the_steps_after_it_reuse() -> None:
    memo = ContentsMemo()
    events = _timed(_turn(0) + _turn(1), 100.0)  # times 100..107
    _built(memo, events)
    events.append(_summary(100.0, 107.0, "summary of turns 0 and 1", at=108.0))
    events += _timed(_turn(2), 109.0)[:1]
    result = _built(memo, events)
    assert result == get_contents(None, events, ME)
    assert [c.parts[0].text for c in result] == ["summary of turns 0 and 1", "turn 2"]  # type: ignore[index]
    assert memo.reused == 0  # the summary replaces earlier events: the whole pass
    for step in (_timed(_turn(2), 110.0)[1:3], _timed(_turn(2), 112.0)[3:]):
        events += step
        assert _built(memo, events) == get_contents(None, events, ME)
    assert memo.reused == 2  # later events stand alone again


@pytest.mark.parametrize(
    "at", [105.0, 106.5], ids=["inside a summary's range", "before an earlier event"]
)
def test_an_event_the_summaries_reorder_or_cover_is_built_whole(at: float) -> None:
    """With a summary in the session the whole pass orders by time and drops what a
    summary's range covers: a new event that is not later than everything is rebuilt."""
    memo = ContentsMemo()
    events = [*_timed(_turn(0), 100.0), _summary(100.0, 105.0, "summary", at=106.0)]
    events += _timed([_text("user", "after the summary")], 107.0)
    _built(memo, events)
    events.append(_text("user", "late", timestamp=at))
    assert _built(memo, events) == get_contents(None, events, ME)
    assert memo.reused == 0


def test_a_summary_recorded_later_than_the_events_after_it_does_not_stop_reuse() -> None:
    """The compaction activity stamps its event with its own clock; the workflow's
    events after it may carry earlier times. Only the summary's range places it."""
    memo = ContentsMemo()
    events = [*_timed(_turn(0), 100.0), _summary(100.0, 103.0, "summary", at=500.0)]
    events += _timed(_turn(1), 110.0)[:1]
    _built(memo, events)
    events += _timed(_turn(1), 111.0)[1:3]
    assert _built(memo, events) == get_contents(None, events, ME)
    assert memo.reused == 1
