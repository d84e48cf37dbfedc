"""Tests for the contents request processor (history building, google-adk 2.13 rules).

Runs on: test process only.
"""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types

from adk.agents import InvocationContext, LlmAgent
from adk.events import Event, EventActions
from adk.flows.llm_flows import contents
from adk.flows.llm_flows._other_agent import OTHER_AGENT_CONTEXT_PREAMBLE
from adk.flows.llm_flows.contents import (
    get_contents,
    get_current_turn_contents,
)
from adk.models.llm_request import LlmRequest
from adk.sessions import Session

if not LlmAgent.__pydantic_complete__:  # workaround: llm_agent.py's forward refs are unresolved
    from adk.tools.base_tool import BaseTool
    from adk.tools.tool_context import ToolContext

    LlmAgent.model_rebuild(_types_namespace={"BaseTool": BaseTool, "ToolContext": ToolContext})

ME = "me"


def _text(author: str, text: str, **kwargs: Any) -> Event:
    role = "user" if author == "user" else "model"
    return Event(
        author=author, content=types.Content(role=role, parts=[types.Part(text=text)]), **kwargs
    )


def _call(author: str, *calls: tuple[str, str | None], **kwargs: Any) -> Event:
    parts = [
        types.Part(function_call=types.FunctionCall(id=i, name=n, args={"q": 1})) for n, i in calls
    ]
    return Event(author=author, content=types.Content(role="model", parts=parts), **kwargs)


def _response(author: str, *responses: tuple[str, str | None, Any], **kwargs: Any) -> Event:
    parts = [
        types.Part(function_response=types.FunctionResponse(id=i, name=n, response={"r": r}))
        for n, i, r in responses
    ]
    return Event(author=author, content=types.Content(role="user", parts=parts), **kwargs)


def _user(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


def _model(text: str) -> types.Content:
    return types.Content(role="model", parts=[types.Part(text=text)])


def _texts(result: list[types.Content]) -> list[tuple[str | None, list[str | None]]]:
    return [(c.role, [p.text for p in c.parts or []]) for c in result]


# --- basic history ------------------------------------------------------------


def test_own_conversation_is_kept_in_order() -> None:
    events = [_text("user", "hi"), _text(ME, "hello")]
    assert get_contents(None, events, ME) == [_user("hi"), _model("hello")]


def test_contents_are_copies() -> None:
    events = [_text("user", "hi")]
    result = get_contents(None, events, ME)
    assert result[0] is not events[0].content


# --- other agents (fenced "For context: ..." retelling, google-adk 2.13) ---------------------

PREAMBLE = OTHER_AGENT_CONTEXT_PREAMBLE


def _quoted(text: str) -> str:
    return f"<<<BEGIN_QUOTED_AGENT_CONTENT>>>\n{text}\n<<<END_QUOTED_AGENT_CONTENT>>>"


def test_other_agent_text_is_retold_as_user_context() -> None:
    result = get_contents(None, [_text("other", "Hello")], ME)
    assert _texts(result) == [("user", [PREAMBLE, f"[other] said:\n{_quoted('Hello')}"])]


def test_other_agent_function_call_is_retold() -> None:
    event = Event(
        author="other",
        content=types.Content(
            role="model",
            parts=[
                types.Part(function_call=types.FunctionCall(name="tool", args={"z": 1, "a": "x"}))
            ],
        ),
    )
    result = get_contents(None, [event], ME)
    assert _texts(result) == [
        # the arguments sorted by name
        (
            "user",
            [
                PREAMBLE,
                f"[other] called tool `tool` with parameters:\n{_quoted(str({'a': 'x', 'z': 1}))}",
            ],
        )
    ]


def test_other_agent_function_response_is_retold() -> None:
    result = get_contents(
        None, [_call("other", ("tool", "c1")), _response("other", ("tool", "c1", "ok"))], ME
    )
    assert _texts(result)[1] == (
        "user",
        [PREAMBLE, f"[other] `tool` tool returned result:\n{_quoted(str({'r': 'ok'}))}"],
    )


def test_other_agent_thoughts_are_dropped() -> None:
    event = Event(
        author="other",
        content=types.Content(
            role="model", parts=[types.Part(text="hmm", thought=True), types.Part(text="Answer")]
        ),
    )
    assert _texts(get_contents(None, [event], ME)) == [
        ("user", [PREAMBLE, f"[other] said:\n{_quoted('Answer')}"])
    ]


def test_other_agent_event_with_only_blank_text_is_dropped() -> None:
    assert get_contents(None, [_text("other", "   ")], ME) == []


def test_other_agent_media_part_is_passed_through() -> None:
    blob = types.Part(inline_data=types.Blob(mime_type="image/png", data=b"x"))
    event = Event(author="other", content=types.Content(role="model", parts=[blob]))
    result = get_contents(None, [event], ME)
    assert result == [types.Content(role="user", parts=[types.Part(text=PREAMBLE), blob])]


def test_no_agent_name_means_no_retelling() -> None:
    assert get_contents(None, [_text("other", "Hello")], "") == [_model("Hello")]


# --- filtering --------------------------------------------------------------------


def test_empty_events_are_filtered() -> None:
    events = [
        Event(author=ME),
        Event(author=ME, content=types.Content(parts=[types.Part(text="no role")])),
        Event(author=ME, content=types.Content(role="model", parts=[])),
        Event(author=ME, content=types.Content(role="model", parts=[types.Part(text="")])),
        Event(
            author=ME,
            content=types.Content(role="model", parts=[types.Part(text="t", thought=True)]),
        ),
        _text(ME, "kept"),
    ]
    assert get_contents(None, events, ME) == [_model("kept")]


def test_own_thought_travels_with_visible_event() -> None:
    parts = [types.Part(text="t", thought=True), types.Part(text="answer")]
    events = [Event(author=ME, content=types.Content(role="model", parts=parts))]
    assert get_contents(None, events, ME) == [types.Content(role="model", parts=parts)]


@pytest.mark.parametrize(
    "name", ["adk_request_credential", "adk_request_confirmation", "adk_framework"]
)
def test_framework_events_are_filtered(name: str) -> None:
    """(google-adk 2.13 keeps adk_request_input's call and answer: the model asked the
    question; differential case request_input.)"""
    events = [
        _text("user", "hi"),
        _call(ME, (name, "adk-1"), ("real", "adk-2")),
        _response("user", (name, "adk-1", "x")),
    ]
    assert get_contents(None, events, ME) == [_user("hi")]


@pytest.mark.parametrize(
    ("current", "visible"),
    [
        ("a.b", ["root", "a", "a.b"]),
        ("a", ["root", "a"]),
        ("a.b.c", ["root", "a", "a.b", "a.b.c"]),
        ("agent_00", ["root"]),
        (None, ["root", "a", "a.b", "a.c", "a.b.c", "agent_0"]),
    ],
)
def test_branch_isolation(current: str | None, visible: list[str]) -> None:
    branches = [None, "a", "a.b", "a.c", "a.b.c", "agent_0"]
    events = [_text(ME, b or "root", branch=b) for b in branches]
    assert [p[1][0] for p in _texts(get_contents(current, events, ME))] == visible


def test_rewound_invocations_are_removed() -> None:
    events = [
        _text("user", "one", invocation_id="i1"),
        _text("user", "two", invocation_id="i2"),
        _text(ME, "reply two", invocation_id="i2"),
        _text("user", "three", invocation_id="i3"),
        Event(
            author="user",
            invocation_id="i4",
            actions=EventActions(rewind_before_invocation_id="i2"),
        ),
        _text("user", "four", invocation_id="i5"),
    ]
    assert get_contents(None, events, ME) == [_user("one"), _user("four")]


def test_input_transcriptions_are_merged_into_user_text() -> None:
    events = [
        Event(author="user", input_transcription=types.Transcription(text="hel")),
        Event(author="user", input_transcription=types.Transcription(text="lo")),
        Event(author=ME, output_transcription=types.Transcription(text="hi")),
    ]
    assert get_contents(None, events, ME) == [_user("hello"), _model("hi")]


# --- include_contents='none' --------------------------------------------------------


def test_current_turn_starts_at_latest_user_event() -> None:
    events = [
        _text("user", "old"),
        _text(ME, "old reply"),
        _text("user", "new"),
        _text(ME, "thinking"),
    ]
    assert get_current_turn_contents(None, events, ME) == [_user("new"), _model("thinking")]


def test_current_turn_starts_at_latest_other_agent_event() -> None:
    events = [_text("user", "hi"), _text("other", "over to you"), _text(ME, "ok")]
    assert _texts(get_current_turn_contents(None, events, ME)) == [
        ("user", [PREAMBLE, f"[other] said:\n{_quoted('over to you')}"]),
        ("model", ["ok"]),
    ]


def test_current_turn_skips_events_on_other_branches() -> None:
    events = [_text("user", "hi"), _text("other", "elsewhere", branch="x.other"), _text(ME, "ok")]
    assert get_current_turn_contents("x.me", events, ME) == [_user("hi"), _model("ok")]


def test_current_turn_without_start_is_empty() -> None:
    assert get_current_turn_contents(None, [_text(ME, "alone")], ME) == []


async def test_process_uses_current_turn_when_include_contents_is_none() -> None:
    agent = LlmAgent(name=ME, include_contents="none")
    session = Session(
        id="s",
        app_name="a",
        user_id="u",
        events=[_text("user", "old"), _text(ME, "r"), _text("user", "new")],
    )
    request = LlmRequest()
    contents.process(
        InvocationContext(invocation_id="i", agent=agent, session=session), agent, request
    )
    assert request.contents == [_user("new")]


# --- function response rearrangement --------------------------------------------------


def test_late_function_response_is_moved_after_its_call() -> None:
    events = [
        _text("user", "hi"),
        _call(ME, ("lr", "c1")),
        _response(ME, ("lr", "c1", "pending")),
        _text(ME, "waiting"),
        _text("user", "any news?"),
        _text(ME, "no"),
        _response("user", ("lr", "c1", "done")),
    ]
    result = get_contents(None, events, ME)
    assert result == [
        _user("hi"),
        events[1].content,
        types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        id="c1", name="lr", response={"r": "done"}
                    )
                )
            ],
        ),
    ]


def test_late_response_merges_earlier_answers_to_sibling_calls() -> None:
    events = [
        _call(ME, ("a", "c1"), ("b", "c2")),
        _response(ME, ("a", "c1", 1)),
        _text(ME, "waiting"),
        _response("user", ("b", "c2", 2)),
    ]
    result = get_contents(None, events, ME)
    assert [
        (p.function_response.id, p.function_response.response)
        for p in result[1].parts or []
        if p.function_response
    ] == [
        ("c1", {"r": 1}),
        ("c2", {"r": 2}),
    ]
    assert len(result) == 2


def test_late_response_without_call_is_dropped() -> None:
    # google-adk 2.13 drops an orphaned function response (2.0 raised ValueError)
    events = [_text("user", "hi"), _text(ME, "x"), _response("user", ("f", "nope", 1))]
    assert get_contents(None, events, ME) == [_user("hi"), _model("x")]


def test_late_response_spanning_two_call_events_goes_to_each_call() -> None:
    # google-adk 2.13 splits the answers between their calls (2.0 raised ValueError)
    events = [
        _call(ME, ("a", "c1")),
        _call(ME, ("b", "c2")),
        _text(ME, "x"),
        _response("user", ("a", "c1", 1), ("b", "c2", 2)),
    ]
    ids = [
        (
            c.role,
            [
                p.function_call.id if p.function_call else p.function_response.id
                for p in c.parts or []
                if p.function_call or p.function_response
            ],
        )
        for c in get_contents(None, events, ME)
    ]
    assert ids == [("model", ["c1"]), ("user", ["c1"]), ("model", ["c2"]), ("user", ["c2"])]


def test_async_responses_in_history_follow_their_calls() -> None:
    events = [
        _call(ME, ("a", "c1"), ("b", "c2")),
        _text(ME, "working"),
        _response(ME, ("b", "c2", 2)),
        _response(ME, ("a", "c1", 1)),
        _text("user", "next"),
    ]
    result = get_contents(None, events, ME)
    assert result[0] == events[0].content
    assert [p.function_response.id for p in result[1].parts or [] if p.function_response] == [
        "c2",
        "c1",
    ]
    assert result[2:] == [_model("working"), _user("next")]


def test_orphan_response_in_history_is_dropped() -> None:
    events = [_response(ME, ("a", "gone", 1)), _text("user", "hi"), _text(ME, "yo")]
    assert get_contents(None, events, ME) == [_user("hi"), _model("yo")]


# --- client function call ids -------------------------------------------------------------


def test_adk_ids_are_stripped_and_model_ids_kept() -> None:
    events = [
        _call(ME, ("f", "adk-1"), ("g", "model-2")),
        _response(ME, ("f", "adk-1", 1), ("g", "model-2", 2)),
    ]
    result = get_contents(None, events, ME)
    assert [p.function_call.id for p in result[0].parts or [] if p.function_call] == [
        None,
        "model-2",
    ]
    assert [p.function_response.id for p in result[1].parts or [] if p.function_response] == [
        None,
        "model-2",
    ]
    assert events[0].get_function_calls()[0].id == "adk-1"


def test_adk_ids_are_kept_when_preserved() -> None:
    events = [_call(ME, ("f", "adk-1")), _response(ME, ("f", "adk-1", 1))]
    result = get_contents(None, events, ME, preserve_function_call_ids=True)
    assert result[0].parts and result[0].parts[0].function_call
    assert result[0].parts[0].function_call.id == "adk-1"


# --- instruction contents placement -----------------------------------------------------------


def insert_instruction_contents(
    contents: list[types.Content], instruction_contents: list[types.Content]
) -> list[types.Content]:
    request = LlmRequest(contents=list(contents))
    request._insert_transient_user_content(instruction_contents)
    return request.contents


def test_instruction_contents_go_before_trailing_user_run() -> None:
    dynamic = _user("DYN")
    result = insert_instruction_contents(
        [_user("a"), _model("b"), _user("c"), _user("d")], [dynamic]
    )
    assert result == [_user("a"), _model("b"), dynamic, _user("c"), _user("d")]


def test_instruction_contents_go_after_function_response() -> None:
    response = _response(ME, ("f", "1", 1)).content
    assert response is not None
    dynamic = _user("DYN")
    assert insert_instruction_contents([_user("a"), response], [dynamic]) == [
        _user("a"),
        response,
        dynamic,
    ]


def test_instruction_contents_go_first_when_all_user() -> None:
    dynamic = _user("DYN")
    assert insert_instruction_contents([_user("a")], [dynamic]) == [dynamic, _user("a")]
    assert insert_instruction_contents([], [dynamic]) == [dynamic]


async def test_process_places_dynamic_instruction_before_latest_user_message() -> None:
    agent = LlmAgent(name=ME)
    session = Session(
        id="s",
        app_name="a",
        user_id="u",
        events=[_text("user", "hi"), _text(ME, "yo"), _text("user", "q")],
    )
    request = LlmRequest(contents=[_user("DYN")])
    contents.process(
        InvocationContext(invocation_id="i", agent=agent, session=session), agent, request
    )
    assert request.contents == [_user("hi"), _model("yo"), _user("DYN"), _user("q")]
