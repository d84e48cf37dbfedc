"""The rewind rules against google-adk 2.13's own functions: the state delta, the live
events after nested rewinds, the routing that ignores rewound invocations, the error
class; and a rewind recorded in the SQLite store, read back from it.

Runs on: test process only (google-adk is the test-only reference).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from google.genai import types

from adk.agents import LlmAgent
from adk.errors import InvocationNotFoundError
from adk.errors.not_found_error import NotFoundError
from adk.events.event import Event
from adk.events.event_actions import EventActions
from adk.flows.agent_routing import find_agent_to_run
from adk.flows.llm_flows._context_filters import apply_rewinds
from adk.sessions import InMemorySessionService
from adk.sessions._rewind_utils import compute_state_delta_for_rewind, rewind_session
from adk.sessions.session import Session
from adk.sessions.sqlite_session_service import SqliteSessionService
from adk.testing import MockModel

# (invocation, author, state delta, rewind target)
HISTORY: list[tuple[str, str, dict[str, Any], str | None]] = [
    ("i1", "user", {"a": 1, "user:u": 1, "app:x": 1, "gone": 1}, None),
    ("i1", "root", {"gone": None, "b": [1, 2]}, None),
    ("i2", "user", {"a": 2, "c": "new", "temp:t": 1}, None),
    ("i2", "helper", {"b": [1, 2], "user:u": 2}, None),
    ("i3", "user", {}, None),
    ("r1", "user", {}, "i2"),
    ("i4", "user", {"d": 4}, None),
    ("i4", "root", {}, None),
    ("r2", "user", {}, "i4"),
    ("i5", "helper", {}, None),
]


def _events(module: Any, actions: Any, history: list[Any]) -> list[Any]:
    return [
        module(
            id=f"ev{n}",
            invocation_id=inv,
            author=author,
            content=types.Content(role="user", parts=[types.Part(text=f"{author} {n}")]),
            actions=actions(state_delta=delta, rewind_before_invocation_id=target),
        )
        for n, (inv, author, delta, target) in enumerate(history)
    ]


def _state(history: list[Any]) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for _, _, delta, _ in history:
        state.update({k: v for k, v in delta.items() if not k.startswith("temp:")})
    return state


def test_live_events_after_nested_rewinds_are_google_adks() -> None:
    from google.adk.events import Event as RefEvent
    from google.adk.events import EventActions as RefActions
    from google.adk.events._rewind_events import _apply_rewinds

    for cut in range(1, len(HISTORY) + 1):
        ours = [e.id for e in apply_rewinds(_events(Event, EventActions, HISTORY[:cut]))]
        theirs = [e.id for e in _apply_rewinds(_events(RefEvent, RefActions, HISTORY[:cut]))]
        assert ours == theirs, cut


@pytest.mark.parametrize("index", range(len(HISTORY)))
async def test_the_state_delta_is_google_adks(index: int) -> None:
    from google.adk.events import Event as RefEvent
    from google.adk.events import EventActions as RefActions
    from google.adk.sessions import Session as RefSession
    from google.adk.sessions import _rewind_utils as ref

    state = _state(HISTORY) | {"none_now": None}
    ours = Session(id="s", app_name="a", user_id="u", state=dict(state))
    ours.events = _events(Event, EventActions, HISTORY)
    theirs = RefSession(id="s", app_name="a", user_id="u", state=dict(state))
    theirs.events = _events(RefEvent, RefActions, HISTORY)
    expected = await ref.compute_state_delta_for_rewind(theirs, index)
    assert await compute_state_delta_for_rewind(ours, index) == expected


def test_routing_ignores_rewound_invocations() -> None:
    helper = LlmAgent(name="helper", model=MockModel.create(["x"]))
    root = LlmAgent(name="root", model=MockModel.create(["x"]), sub_agents=[helper])
    session = Session(id="s", app_name="a", user_id="u")
    history = [h for h in HISTORY if h[0] in ("i1", "i2")]  # helper spoke last
    session.events = _events(Event, EventActions, history)
    assert find_agent_to_run(session, root) is helper
    session.events += _events(
        Event, EventActions, [("r", "user", {}, "i2"), ("i9", "user", {}, None)]
    )
    assert find_agent_to_run(session, root) is root


def test_the_error_is_google_adks() -> None:
    from google.adk.errors import InvocationNotFoundError as Ref

    assert issubclass(InvocationNotFoundError, NotFoundError)
    assert issubclass(InvocationNotFoundError, ValueError)
    assert str(InvocationNotFoundError()) == str(Ref()) == "Invocation ID not found."
    assert InvocationNotFoundError().message == Ref().message


@pytest.mark.parametrize("store", ["memory", "sqlite"])
async def test_a_rewind_is_recorded_and_read_back(store: str, tmp_path: Path) -> None:
    service = (
        SqliteSessionService(tmp_path / "s.db") if store == "sqlite" else InMemorySessionService()
    )
    session = await service.create_session(app_name="a", user_id="u", session_id="s")
    for event in _events(Event, EventActions, HISTORY[:5]):
        await service.append_event(session, event)
    with pytest.raises(InvocationNotFoundError, match="Invocation ID not found: nope"):
        await rewind_session(
            session_service=service, session=session, rewind_before_invocation_id="nope"
        )
    await rewind_session(session_service=service, session=session, rewind_before_invocation_id="i2")
    stored = await service.get_session(app_name="a", user_id="u", session_id="s")
    assert stored is not None
    rewind = stored.events[-1]
    assert rewind.author == "user" and rewind.invocation_id.startswith("e-")
    assert rewind.actions.rewind_before_invocation_id == "i2"
    assert rewind.actions.state_delta == {"a": 1, "c": None, "gone": None}  # (None again)
    assert {k: stored.state[k] for k in ("a", "b", "c", "app:x", "user:u")} == {
        "a": 1,
        "b": [1, 2],
        "c": None,
        "app:x": 1,
        "user:u": 2,  # user: state is not rewound
    }
    assert [e.invocation_id for e in apply_rewinds(stored.events)] == ["i1", "i1"]
    if store == "sqlite":
        service.close()


def test_the_method_signatures_are_google_adks() -> None:
    import inspect

    from google.adk.runners import Runner as Ref

    from adk.runners import Runner

    for method in (
        "rewind_async",
        "_compute_state_delta_for_rewind",
        "_compute_artifact_delta_for_rewind",
    ):
        mine = inspect.signature(getattr(Runner, method)).parameters
        theirs = inspect.signature(getattr(Ref, method)).parameters
        assert [(p.name, p.kind, p.default) for p in mine.values()] == [
            (p.name, p.kind, p.default) for p in theirs.values()
        ], method


async def test_an_answer_to_a_rewound_call_starts_a_new_invocation() -> None:
    """google-adk 2.13 resolves a FunctionResponse's invocation among live events only."""
    from client._waiting import invocation_of_calls
    from workflows.contracts import SessionRef

    service = InMemorySessionService()
    session = await service.create_session(app_name="a", user_id="u", session_id="s")
    ask = types.Part.from_function_call(name="wait", args={})
    ask.function_call.id = "call-1"  # type: ignore[union-attr]
    await service.append_event(
        session, Event(invocation_id="i1", author="root", content=types.ModelContent([ask]))
    )
    answer = types.UserContent(
        [types.Part.from_function_response(name="wait", response={"ok": True})]
    )
    answer.parts[0].function_response.id = "call-1"  # type: ignore[index, union-attr]
    ref = SessionRef(app_name="a", user_id="u", session_id="s")
    assert await invocation_of_calls(service, ref, answer) == "i1"
    await rewind_session(session_service=service, session=session, rewind_before_invocation_id="i1")
    assert await invocation_of_calls(service, ref, answer) is None


async def test_a_request_of_a_rewound_invocation_is_not_answered() -> None:
    """durable-adk's answer to a request of an ended invocation (client approve/respond)."""
    from client._answers import AnswerRejectedError
    from client._waiting import answer_message
    from workflows.contracts import SessionRef

    service = InMemorySessionService()
    session = await service.create_session(app_name="a", user_id="u", session_id="s")
    ask = types.Part.from_function_call(name="wait", args={})
    ask.function_call.id = "call-1"  # type: ignore[union-attr]
    await service.append_event(
        session,
        Event(
            invocation_id="i1",
            author="root",
            content=types.ModelContent([ask]),
            long_running_tool_ids={"call-1"},
        ),
    )
    ref = SessionRef(app_name="a", user_id="u", session_id="s")
    message = await answer_message(service, ref, "call-1", "respond", {"ok": True})
    assert message.parts[0].function_response.id == "call-1"  # type: ignore[index, union-attr]
    await rewind_session(session_service=service, session=session, rewind_before_invocation_id="i1")
    with pytest.raises(AnswerRejectedError, match="rewound to before: nothing to answer"):
        await answer_message(service, ref, "call-1", "respond", {"ok": True})
