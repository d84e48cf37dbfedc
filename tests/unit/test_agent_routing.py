"""Tests for agent routing: which agent answers a new message (seed 001 section 1.4).

Runs on: test process only.
"""

from __future__ import annotations

from google.genai import types

from adk.agents import LlmAgent, SequentialAgent
from adk.events import Event, EventActions
from adk.flows.agent_routing import (
    caller_keeping_the_turn,
    find_agent_to_run,
    find_matching_function_call,
    is_transferable_across_agent_tree,
)
from adk.sessions import Session

if not LlmAgent.__pydantic_complete__:  # workaround: llm_agent.py's forward refs are unresolved
    from adk.tools.base_tool import BaseTool
    from adk.tools.tool_context import ToolContext

    LlmAgent.model_rebuild(_types_namespace={"BaseTool": BaseTool, "ToolContext": ToolContext})


def _tree() -> LlmAgent:
    """root -> [helper -> [deep], locked (no transfer to parent), seq -> [inner]]."""
    return LlmAgent(
        name="root",
        sub_agents=[
            LlmAgent(name="helper", sub_agents=[LlmAgent(name="deep")]),
            LlmAgent(name="locked", disallow_transfer_to_parent=True),
            SequentialAgent(name="seq", sub_agents=[LlmAgent(name="inner")]),
        ],
    )


def _said(author: str, **kwargs: object) -> Event:
    return Event(
        author=author, content=types.Content(role="model", parts=[types.Part(text="x")]), **kwargs
    )


def _call(author: str, call_id: str) -> Event:
    part = types.Part(function_call=types.FunctionCall(id=call_id, name="f"))
    return Event(author=author, content=types.Content(role="model", parts=[part]))


def _answer(call_id: str) -> Event:
    part = types.Part(function_response=types.FunctionResponse(id=call_id, name="f", response={}))
    return Event(author="user", content=types.Content(role="user", parts=[part]))


def _run(root: LlmAgent, *events: Event) -> str:
    session = Session(id="s", app_name="a", user_id="u", events=list(events))
    return find_agent_to_run(session, root).name


def test_empty_session_runs_root() -> None:
    assert _run(_tree()) == "root"


def test_last_transferable_agent_keeps_the_conversation() -> None:
    assert _run(_tree(), _said("user"), _said("helper"), _said("user")) == "helper"


def test_nested_transferable_agent_is_found() -> None:
    assert _run(_tree(), _said("deep"), _said("user")) == "deep"


def test_root_event_runs_root() -> None:
    assert _run(_tree(), _said("helper"), _said("root"), _said("user")) == "root"


def test_agent_disallowing_transfer_to_parent_is_skipped() -> None:
    assert _run(_tree(), _said("helper"), _said("locked"), _said("user")) == "helper"


def test_agent_under_non_llm_ancestor_is_skipped() -> None:
    assert _run(_tree(), _said("inner"), _said("user")) == "root"


def test_workflow_agent_author_is_not_transferable() -> None:
    assert _run(_tree(), _said("seq"), _said("user")) == "root"


def test_agent_under_ancestor_disallowing_transfer_is_skipped() -> None:
    root = LlmAgent(
        name="root",
        sub_agents=[
            LlmAgent(
                name="mid", disallow_transfer_to_parent=True, sub_agents=[LlmAgent(name="leaf")]
            )
        ],
    )
    assert _run(root, _said("leaf"), _said("user")) == "root"


def test_unknown_author_is_skipped() -> None:
    assert _run(_tree(), _said("helper"), _said("stranger"), _said("user")) == "helper"


def test_agent_state_and_end_of_agent_events_are_skipped() -> None:
    events = [
        _said("helper"),
        _said("deep", actions=EventActions(agent_state={"k": 1})),
        _said("deep", actions=EventActions(end_of_agent=True)),
        _said("user"),
    ]
    assert _run(_tree(), *events) == "helper"


def test_function_response_routes_to_caller_even_if_not_transferable() -> None:
    assert (
        _run(_tree(), _said("user"), _call("locked", "c1"), _said("helper"), _answer("c1"))
        == "locked"
    )


def test_function_response_routes_to_caller_under_workflow_agent() -> None:
    assert _run(_tree(), _call("inner", "c1"), _answer("c1")) == "inner"


def test_function_response_from_unknown_caller_falls_back_to_scan() -> None:
    assert _run(_tree(), _said("helper"), _call("stranger", "c1"), _answer("c1")) == "helper"


def test_find_matching_function_call_uses_first_response_id() -> None:
    call = _call("helper", "c1")
    assert find_matching_function_call([call, _call("root", "c2"), _answer("c1")]) is call


def test_find_matching_function_call_needs_a_trailing_response() -> None:
    assert find_matching_function_call([_call("helper", "c1"), _said("user")]) is None
    assert find_matching_function_call([_answer("zz")]) is None
    assert find_matching_function_call([]) is None


def test_transferable_requires_every_ancestor_to_allow_parent_transfer() -> None:
    root = _tree()
    assert is_transferable_across_agent_tree(root)
    assert is_transferable_across_agent_tree(root.find_agent("deep"))  # type: ignore[arg-type]
    assert not is_transferable_across_agent_tree(root.find_agent("locked"))  # type: ignore[arg-type]
    assert not is_transferable_across_agent_tree(root.find_agent("inner"))  # type: ignore[arg-type]


def test_root_disallowing_transfer_to_parent_blocks_its_subtree() -> None:
    root = LlmAgent(name="root", disallow_transfer_to_parent=True, sub_agents=[LlmAgent(name="a")])
    assert not is_transferable_across_agent_tree(root.find_agent("a"))  # type: ignore[arg-type]
    assert _run(root, _said("a"), _said("user")) == "root"


def _responded(author: str, call_id: str) -> Event:
    part = types.Part(function_response=types.FunctionResponse(id=call_id, name="f", response={}))
    return Event(author=author, content=types.Content(role="user", parts=[part]))


def test_agent_whose_call_the_last_event_answers_keeps_a_resumable_turn() -> None:
    # google-adk 2.13 routes a root LlmAgent's text message before recording it: the
    # step's pending call's response is the last event (resumable: the step keeps it)
    events = [_call("inner", "c1"), _responded("inner", "c1")]
    keeper = caller_keeping_the_turn(events, _tree())
    assert keeper is not None and keeper.name == "inner"


def test_no_agent_keeps_the_turn_after_a_user_answer_or_a_reply() -> None:
    assert caller_keeping_the_turn([_call("inner", "c1"), _answer("c1")], _tree()) is None
    assert caller_keeping_the_turn([_call("inner", "c1"), _said("inner")], _tree()) is None
