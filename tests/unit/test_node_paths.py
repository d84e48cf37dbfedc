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
    seen = [paths.start_first(root)] + [paths.transfer(root.find(n)) for n in order]  # type: ignore[arg-type]
    assert seen == [
        "root@1",
        "root@1/a@1",
        "root@1/a@1/c@1",
        "root@1/a@2",
        "root@2",
        "root@2/a@1",
        "root@2/loop@1",
    ]


def _walk(paths: NodePaths, first: str, *names: str) -> list[str]:
    """The paths of a turn that starts at `first` and transfers to each of `names`."""
    root = paths.root
    return [paths.start_first(root.find(first))] + [paths.transfer(root.find(n)) for n in names]  # type: ignore[arg-type]


def _deep_tree() -> AgentSpec:
    """desk -> (faq, sales -> (pricing -> detail, promo)), as the probes on 2.13 used."""
    pricing = AgentSpec(
        name="pricing", kind="llm", sub_agents=[AgentSpec(name="detail", kind="llm")]
    )
    sales = AgentSpec(
        name="sales", kind="llm", sub_agents=[pricing, AgentSpec(name="promo", kind="llm")]
    )
    return AgentSpec(name="desk", kind="llm", sub_agents=[AgentSpec(name="faq", kind="llm"), sales])


@pytest.mark.parametrize(
    ("first", "transfers", "expected"),
    [
        # the ancestors of a nested first agent count as run once
        ("pricing", ["sales"], ["desk@1/sales@1/pricing@1", "desk@1/sales@1"]),
        # no run of the parent up the chain: it runs at the top, ancestors at run 1
        ("pricing", ["sales", "desk"], ["desk@1/sales@1/pricing@1", "desk@1/sales@1", "desk@2"]),
        (
            "pricing",
            ["sales", "pricing"],
            ["desk@1/sales@1/pricing@1", "desk@1/sales@1", "desk@1/sales@1/pricing@2"],
        ),
        # a peer runs under the transferring run's context (here the top)
        (
            "pricing",
            ["promo", "pricing"],
            ["desk@1/sales@1/pricing@1", "desk@1/sales@1/promo@1", "desk@1/sales@1/pricing@2"],
        ),
        (
            "pricing",
            ["sales", "faq"],
            ["desk@1/sales@1/pricing@1", "desk@1/sales@1", "desk@1/faq@1"],
        ),
        (
            "detail",
            ["pricing", "sales", "desk"],
            [
                "desk@1/sales@1/pricing@1/detail@1",
                "desk@1/sales@1/pricing@1",
                "desk@1/sales@1",
                "desk@2",
            ],
        ),
        (
            "pricing",
            ["sales", "desk", "sales", "pricing"],
            [
                "desk@1/sales@1/pricing@1",
                "desk@1/sales@1",
                "desk@2",
                "desk@2/sales@1",
                "desk@2/sales@1/pricing@1",
            ],
        ),
        ("sales", ["desk", "sales"], ["desk@1/sales@1", "desk@2", "desk@2/sales@1"]),
        # within one turn from the root the parent's run is found up the chain
        (
            "desk",
            ["sales", "pricing", "sales", "desk"],
            ["desk@1", "desk@1/sales@1", "desk@1/sales@1/pricing@1", "desk@1/sales@2", "desk@2"],
        ),
    ],
)
def test_paths_as_google_adk_gives_them(
    first: str, transfers: list[str], expected: list[str]
) -> None:
    """Each row observed on google-adk 2.13 (turn 2 of a session whose turn 1 ended
    at `first`)."""
    paths = NodePaths.for_root(_deep_tree())
    assert paths is not None
    assert _walk(paths, first, *transfers) == expected


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
