"""Payloads recorded in history leave out the fields at their defaults (issue 16).

Runs on: test process (pure: the data converter and the contracts, no Temporal).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pydantic
from google.genai import types

from adk.agents.run_config import RunConfig
from adk.events.event import Event
from adk.events.event_actions import EventActions
from adk.utils._compact import Compact, _defaults
from workflows import contracts, names
from workflows.contracts import (
    AgentRunInput,
    AgentRunResult,
    AgentSpec,
    ModelStepInput,
    ModelStepOutput,
    RunContext,
    SessionRef,
    StepRef,
    ToolCallOutput,
)
from workflows.converter import data_converter

PINNED = Path(__file__).with_name("compact_defaults.json")


def roundtrip(value: Any) -> tuple[dict[str, Any], Any]:
    converter = data_converter.payload_converter
    payload = converter.to_payloads([value])[0]
    return json.loads(payload.data), converter.from_payloads([payload], [type(value)])[0]


def context(**fields: Any) -> RunContext:
    session = SessionRef(app_name="app", user_id="u", session_id="s")
    return RunContext(session=session, invocation_id="e-1", root_workflow_id="w", **fields)


def test_a_childs_input_holds_only_what_differs_from_the_defaults() -> None:
    sent = AgentRunInput(context=context(root_digest="d" * 32), agent_name="web", llm_calls=2)
    data, back = roundtrip(sent)
    assert data == {
        "context": {
            "session": {"app_name": "app", "user_id": "u", "session_id": "s"},
            "invocation_id": "e-1",
            "root_digest": "d" * 32,
            "root_workflow_id": "w",
        },
        "agent_name": "web",
        "llm_calls": 2,
    }
    assert back == sent


def test_a_child_named_by_its_workflow_id_carries_neither_session_nor_invocation() -> None:
    root_id = names.invocation_workflow_id("app", "u", "s")
    child_id = names.agent_run_id(root_id, "e-1", "research#2/research.web#1")
    assert names.agent_run_origin(child_id) == (root_id, "e-1", ("app", "u", "s"))
    assert names.agent_run_origin(root_id) is None
    assert names.agent_run_origin("other/e-1/a#1") is None  # not an invocation's id
    # the parent leaves them at their defaults: the child fills them in from its id
    sent = AgentRunInput(context=RunContext(root_digest="d" * 32), agent_name="web")
    data, back = roundtrip(sent)
    assert data == {"context": {"root_digest": "d" * 32}, "agent_name": "web"}
    assert back == sent


def test_an_activitys_step_leaves_out_what_its_workflow_id_names() -> None:
    root_id = names.invocation_workflow_id("app", "u", "s")
    assert names.step_origin(root_id) == (("app", "u", "s"), None)  # the invocation's own
    child_id = names.agent_run_id(root_id, "e-1", "writer#3")
    assert names.step_origin(child_id) == (("app", "u", "s"), "e-1")
    assert names.step_origin("my-workflow") is None
    data, back = roundtrip(
        ModelStepInput(ref=StepRef(agent_name="writer"), step=1, event_id="x", timestamp=1.0)
    )
    assert data["ref"] == {"agent_name": "writer"}
    assert back.ref.session == contracts.named_by_id() and back.ref.invocation_id == ""


def test_a_shell_agents_step_leaves_out_the_flags_such_a_step_has() -> None:
    step = dict(records_errors=False, reports_state=False, nested_transfers=True)
    sent = AgentRunInput(context=RunContext(), agent_name="a", shell_step=True, **step)
    data, back = roundtrip(sent)
    assert data == {"context": {}, "agent_name": "a", "shell_step": True}
    assert back == sent
    # a value other than a step's is written, even the class's default (an LLM root's
    # steps record errors; a ParallelAgent's branches report their state)
    sent = sent.model_copy(update={"records_errors": True, "reports_state": True})
    data, back = roundtrip(sent)
    assert data["records_errors"] is True and data["reports_state"] is True
    assert "nested_transfers" not in data
    assert back == sent
    # histories from before: no shell_step, every flag that is not the class's default
    old = {"context": {}, "agent_name": "a", "records_errors": False, "nested_transfers": True}
    assert AgentRunInput.model_validate(old).reports_state is True


def test_values_other_than_the_default_are_written_even_when_falsy_or_changed_in_place() -> None:
    sent = AgentRunInput(
        context=context(run_config=RunConfig(max_llm_calls=3)),
        agent_name="a",
        records_errors=False,  # default True
        reports_state=False,
    )
    sent.temp_state["temp:k"] = None  # a default container, changed in place
    data, back = roundtrip(sent)
    assert data["records_errors"] is False and data["reports_state"] is False
    assert data["temp_state"] == {"temp:k": None}
    assert data["context"]["run_config"]["max_llm_calls"] == 3
    assert back == sent


def test_results_and_events_leave_out_empty_actions() -> None:
    event = Event(
        author="web",
        invocation_id="e-1",
        content=types.Content(role="model", parts=[types.Part(text="hi")]),
        actions=EventActions(state_delta={"notes": "hi"}),
    )
    data, back = roundtrip(ModelStepOutput(event=event))
    assert data["event"]["actions"] == {"state_delta": {"notes": "hi"}}
    assert "node_info" not in data["event"]  # nothing to say: left out
    assert back.event == event
    event.actions = EventActions()
    data, back = roundtrip(ModelStepOutput(event=event))
    assert "actions" not in data["event"]
    assert back.event == event
    # elsewhere (the session store's JSON) every field is written, as before
    assert json.loads(event.model_dump_json())["actions"]["state_delta"] == {}
    assert "node_info" in json.loads(event.model_dump_json())
    assert "calls" not in data and "end_invocation" not in data
    assert back.event == event
    data, back = roundtrip(AgentRunResult(llm_calls=1, final_text="hi"))
    assert data == {"llm_calls": 1, "final_text": "hi"}
    assert roundtrip(ToolCallOutput(response={"ok": True}))[0] == {"response": {"ok": True}}


def test_elsewhere_every_field_is_written_so_the_trees_digest_is_unchanged() -> None:
    spec = AgentSpec(name="root", kind="sequential", sub_agents=[AgentSpec(name="a", kind="llm")])
    assert (
        json.loads(spec.model_dump_json())["sub_agents"][0]["disallow_transfer_to_parent"] is False
    )
    compact, back = roundtrip(spec)
    assert compact["sub_agents"] == [{"name": "a", "kind": "llm"}]
    assert back.model_dump_json() == spec.model_dump_json()  # what the digest is taken of


def compact_models() -> dict[str, type[Compact]]:
    found: dict[str, type[Compact]] = {"EventActions": EventActions}
    for name, model in vars(contracts).items():
        if isinstance(model, type) and issubclass(model, Compact) and model is not Compact:
            found[name] = model
    from adk.events.event import NodeInfo

    found["NodeInfo"] = NodeInfo
    return found


def as_json(value: Any) -> Any:
    if isinstance(value, pydantic.BaseModel):
        return json.loads(value.model_dump_json())
    return json.loads(json.dumps(value, default=str))


def test_the_defaults_recorded_payloads_rely_on_never_change() -> None:
    """A compact payload leaves out a field at its default, so history's meaning depends
    on the default: changing one would change what every recorded payload says. Add a
    field instead (then run this file with UPDATE=1 to pin it)."""
    import os

    current = {
        name: {field: as_json(default) for field, default in _defaults(model).items()}
        for name, model in sorted(compact_models().items())
    }
    if os.environ.get("UPDATE") or not PINNED.exists():
        pinned = json.loads(PINNED.read_text()) if PINNED.exists() else {}
        for name, fields in current.items():  # only new fields are added
            pinned.setdefault(name, {})
            for field, default in fields.items():
                pinned[name].setdefault(field, default)
        PINNED.write_text(json.dumps(pinned, indent=1, sort_keys=True) + "\n")
    pinned = json.loads(PINNED.read_text())
    changed = [
        f"{name}.{field}: {pinned[name][field]!r} -> {default!r}"
        for name, fields in current.items()
        for field, default in fields.items()
        if name in pinned and field in pinned[name] and pinned[name][field] != default
    ]
    assert changed == []
    unpinned = [
        f"{name}.{field}"
        for name, fields in current.items()
        for field in fields
        if field not in pinned.get(name, {})
    ]
    assert unpinned == [], "new fields: pin their defaults (UPDATE=1 pytest this file)"
