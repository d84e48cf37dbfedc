"""Which agents a transfer_to_agent may name (workflows/_transfers.py), against google-adk 2.13.

Runs on: test process only. Every (agent, target) pair of one tree is decided by
2.13's own functions and by ours; the differential cases transfer_rules and
transfer_unrelated run whole turns.
"""

from __future__ import annotations

import warnings
from types import SimpleNamespace
from typing import Any

import pytest
from temporalio.exceptions import ApplicationError

from workflows._transfers import checked_target
from workflows.contracts import AgentSpec
from workflows.errors import find_raised, rebuild

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from google.adk.agents import LlmAgent, SequentialAgent
    from google.adk.flows.llm_flows.core._function_call_postprocessor import get_agent_to_run
    from google.adk.workflow._errors import WorkflowDataError
    from google.adk.workflow.utils._transfer_utils import resolve_and_derive_transfer_context


def _reference_tree() -> Any:
    pricing = LlmAgent(name="pricing", sub_agents=[LlmAgent(name="detail")])
    promo = LlmAgent(name="promo", disallow_transfer_to_peers=True)
    faq = LlmAgent(name="faq", disallow_transfer_to_parent=True, disallow_transfer_to_peers=True)
    step = LlmAgent(name="step", disallow_transfer_to_parent=True)
    return LlmAgent(
        name="desk",
        sub_agents=[
            faq,
            LlmAgent(name="sales", sub_agents=[pricing, promo]),
            SequentialAgent(name="pipe", sub_agents=[step, LlmAgent(name="step2")]),
        ],
    )


def _spec(agent: Any) -> AgentSpec:
    return AgentSpec(
        name=agent.name,
        kind="llm" if isinstance(agent, LlmAgent) else "sequential",
        sub_agents=[_spec(sub) for sub in agent.sub_agents],
        disallow_transfer_to_parent=getattr(agent, "disallow_transfer_to_parent", False),
        disallow_transfer_to_peers=getattr(agent, "disallow_transfer_to_peers", False),
    )


with warnings.catch_warnings():  # SequentialAgent's deprecation (2.13)
    warnings.simplefilter("ignore")
    REFERENCE = _reference_tree()
ROOT = _spec(REFERENCE)
LLM_AGENTS = [a.name for a in ROOT.walk() if a.kind == "llm"]
NAMES = [a.name for a in ROOT.walk()] + ["nobody"]


def _ours(name: str, target: str, *, as_node: bool) -> tuple[str, str]:
    agent = ROOT.find(name)
    assert agent is not None
    try:
        return "ok", checked_target(ROOT, agent, target, as_node=as_node).name
    except ApplicationError as error:
        raised = find_raised(error)
        assert raised is not None
        return raised.name, raised.message


def _reference_as_node(name: str, target: str) -> tuple[str, str]:
    """2.13's DynamicNodeScheduler: resolve_and_derive_transfer_context, then its two
    ValueErrors (no target; a target with no route)."""
    agent = REFERENCE.find_agent(name)
    top = SimpleNamespace(node=None, parent_ctx=None)
    ctx = SimpleNamespace(node=agent, parent_ctx=top)
    try:
        found, context = resolve_and_derive_transfer_context(target, agent, REFERENCE, ctx, top)  # type: ignore[arg-type]
    except WorkflowDataError as error:
        return "WorkflowDataError", str(error)
    if found is None:
        return "ValueError", f"Transfer target agent '{target}' not found."
    if context is None:
        names = ", ".join(agent._get_available_agent_names())
        return "ValueError", (
            f"Cannot transfer from '{name}' to unrelated agent '{target}'.\n"
            f"Available agents: {names}"
        )
    return "ok", found.name


def _reference_legacy(name: str, target: str) -> tuple[str, str]:
    agent = REFERENCE.find_agent(name)
    try:
        return "ok", get_agent_to_run(SimpleNamespace(agent=agent), target).name  # type: ignore[arg-type]
    except ValueError as error:
        return "ValueError", str(error)


@pytest.mark.parametrize("name", LLM_AGENTS)
def test_an_agent_run_as_a_node_transfers_as_in_google_adk(name: str) -> None:
    for target in NAMES:
        assert _ours(name, target, as_node=True) == _reference_as_node(name, target), target


@pytest.mark.parametrize("name", LLM_AGENTS)
def test_an_agent_of_the_legacy_flow_transfers_as_in_google_adk(name: str) -> None:
    for target in NAMES:
        assert _ours(name, target, as_node=False) == _reference_legacy(name, target), target


def test_the_texts_callers_see() -> None:
    assert _ours("pricing", "desk", as_node=True) == (
        "ValueError",
        "Cannot transfer from 'pricing' to unrelated agent 'desk'.\n"
        "Available agents: desk, faq, sales, pricing, detail, promo, pipe, step, step2",
    )
    assert _ours("faq", "desk", as_node=True) == (
        "WorkflowDataError",
        "Cannot transfer from 'faq' to parent agent 'desk': disallow_transfer_to_parent is set.",
    )
    assert _ours("promo", "pricing", as_node=True)[0] == "WorkflowDataError"
    assert _ours("sales", "sales", as_node=True) == (
        "WorkflowDataError",
        "Agent 'sales' cannot transfer to itself.",
    )
    # the legacy flow: itself is fine, a parent that is not an LlmAgent is not a target
    assert _ours("step2", "step2", as_node=False) == ("ok", "step2")
    assert _ours("step2", "pipe", as_node=False) == (
        "ValueError",
        "Agent step2 is not allowed to transfer to agent pipe.",
    )


def test_the_caller_gets_google_adks_class_back() -> None:
    agent = ROOT.find("faq")
    assert agent is not None
    with pytest.raises(ApplicationError) as raised:
        checked_target(ROOT, agent, "sales", as_node=True)
    described = find_raised(raised.value)
    assert described is not None
    error = rebuild(described)
    from adk.workflow._errors import WorkflowDataError as Ours

    assert isinstance(error, Ours) and isinstance(error, ValueError)
    assert str(error) == described.message
