"""Node paths (Event.node_info.path) and the google-adk 2.13 fields events carry.

Runs on: test process only. The paths are compared with google-adk 2.13 itself
in tests/differential (cases node_paths_*); here the rules one by one.
"""

from __future__ import annotations

import pytest
from google.genai import types

from adk.events import Event
from adk.flows.llm_flows.contents import get_contents
from adk.models import Gemini, LlmRequest
from workflows._node_paths import NodePaths
from workflows.contracts import AgentSpec


def _tree() -> AgentSpec:
    c = AgentSpec(name="c", kind="llm")
    a = AgentSpec(name="a", kind="llm", sub_agents=[c])
    loop = AgentSpec(name="loop", kind="loop", sub_agents=[AgentSpec(name="l1", kind="llm")])
    return AgentSpec(name="root", kind="llm", sub_agents=[a, loop])


def test_transfer_chain_counts_runs_under_each_parent_run() -> None:
    root = _tree()
    paths = NodePaths.for_root(root)
    assert paths is not None
    order = ["a", "c", "a", "root", "a", "loop"]
    seen = [paths.start_first(root)] + [paths.start(root.find(n)) for n in order]  # type: ignore[arg-type]
    assert seen == [
        "root@1",
        "root@1/a@1",
        "root@1/a@1/c@1",
        "root@1/a@2",
        "root@2",
        "root@2/a@1",
        "root@2/loop@1",
    ]


def test_the_first_agent_counts_its_ancestors_as_run_once() -> None:
    root = _tree()
    paths = NodePaths.for_root(root)
    assert paths is not None
    assert paths.start_first(root.find("c")) == "root@1/a@1/c@1"  # type: ignore[arg-type]
    assert paths.start(root) == "root@2"  # c -> root: the root already ran once


def test_a_root_that_is_not_an_llm_agent_gives_no_paths() -> None:
    assert NodePaths.for_root(AgentSpec(name="pipe", kind="sequential")) is None


def test_events_stored_before_node_info_existed_still_load() -> None:
    stored = (
        '{"content":{"parts":[{"text":"hi"}],"role":"model"},"invocationId":"e-1",'
        '"author":"root","actions":{"stateDelta":{},"artifactDelta":{},'
        '"requestedAuthConfigs":{},"requestedToolConfirmations":{}},"id":"x","timestamp":1.0}'
    )
    event = Event.model_validate_json(stored)
    assert event.node_info.path == "" and event.output is None
    again = Event.model_validate_json(
        Event(author="a", node_info={"path": "root@1/a@2"}).model_dump_json(by_alias=True)
    )
    assert (again.node_info.path, again.node_info.run_id, again.node_info.name) == (
        "root@1/a@2",
        "2",
        "a",
    )
    assert again.node_info.parent_run_id == "1"


def test_an_isolation_scoped_event_is_hidden_from_agents() -> None:
    def said(text: str, scope: str | None) -> Event:
        content = types.Content(role="user", parts=[types.Part(text=text)])
        return Event(author="user", content=content, isolation_scope=scope)

    contents = get_contents(None, [said("seen", None), said("scoped", "fc-1")], "root")
    assert [c.parts[0].text for c in contents if c.parts] == ["seen"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("cache_config", {"ttl_seconds": 60}),
        ("previous_interaction_id", "i-1"),
        ("service_tier", "flex"),
    ],
)
async def test_gemini_refuses_request_fields_it_would_ignore(field: str, value: object) -> None:
    request = LlmRequest(model="gemini-2.5-flash", **{field: value})
    with pytest.raises(NotImplementedError, match=f"LlmRequest.{field}"):
        async for _ in Gemini(model="gemini-2.5-flash").generate_content_async(request):
            pass


def test_event_shorthands_as_google_adk() -> None:
    event = Event(author="a", message="hi", state={"k": 1}, route="next", node_path="root@1/a@1")
    assert event.content is not None and event.content.role == "user"
    assert event.message is event.content
    assert (event.actions.state_delta, event.actions.route) == ({"k": 1}, "next")
    assert (event.node_info.path, event.node_name) == ("root@1/a@1", "a")
    with pytest.raises(ValueError, match="mutually exclusive"):
        Event(message="hi", content=types.Content(role="user", parts=[types.Part(text="x")]))


def test_an_error_event_is_a_final_response() -> None:
    responded = types.Content(
        role="user",
        parts=[types.Part(function_response=types.FunctionResponse(name="f", response={}))],
    )
    assert Event(error_code="E", content=responded).is_final_response()
    assert not Event(content=responded).is_final_response()
