"""Tests for the agent-transfer request processor (targets and exact instruction text).

Runs on: test process only.
"""

from __future__ import annotations

import pytest

from adk.agents import BaseAgent, InvocationContext, LlmAgent, SequentialAgent
from adk.flows.llm_flows import agent_transfer
from adk.flows.llm_flows.agent_transfer import build_transfer_instructions, get_transfer_targets
from adk.models.llm_request import LlmRequest
from adk.sessions import Session

if not LlmAgent.__pydantic_complete__:  # workaround: llm_agent.py's forward refs are unresolved
    from adk.tools.base_tool import BaseTool
    from adk.tools.tool_context import ToolContext

    LlmAgent.model_rebuild(_types_namespace={"BaseTool": BaseTool, "ToolContext": ToolContext})


def _tree(*, to_parent: bool = True, to_peers: bool = True) -> LlmAgent:
    """root -> [me -> [kid], peer]; returns `me`."""
    me = LlmAgent(
        name="me",
        description="me desc",
        sub_agents=[LlmAgent(name="kid", description="kid desc")],
        disallow_transfer_to_parent=not to_parent,
        disallow_transfer_to_peers=not to_peers,
    )
    LlmAgent(
        name="root",
        description="root desc",
        sub_agents=[me, LlmAgent(name="peer", description="peer desc")],
    )
    return me


def _names(agents: list[BaseAgent]) -> list[str]:
    return [a.name for a in agents]


@pytest.mark.parametrize(
    ("to_parent", "to_peers", "expected"),
    [
        (True, True, ["kid", "root", "peer"]),
        (False, True, ["kid", "peer"]),
        (True, False, ["kid", "root"]),
        (False, False, ["kid"]),
    ],
)
def test_targets_per_flag_combination(to_parent: bool, to_peers: bool, expected: list[str]) -> None:
    assert _names(get_transfer_targets(_tree(to_parent=to_parent, to_peers=to_peers))) == expected


def test_root_targets_are_its_sub_agents() -> None:
    root = _tree().root_agent
    assert _names(get_transfer_targets(root)) == ["me", "peer"]


def test_non_llm_parent_gives_no_parent_or_peers() -> None:
    me = LlmAgent(name="me", sub_agents=[LlmAgent(name="kid")])
    SequentialAgent(name="seq", sub_agents=[me, LlmAgent(name="peer")])
    assert _names(get_transfer_targets(me)) == ["kid"]


def test_non_llm_agent_has_no_targets() -> None:
    assert get_transfer_targets(SequentialAgent(name="seq", sub_agents=[LlmAgent(name="a")])) == []


def test_non_llm_sub_agent_is_a_target() -> None:
    me = LlmAgent(name="me", sub_agents=[SequentialAgent(name="pipeline")])
    assert _names(get_transfer_targets(me)) == ["pipeline"]


def test_instruction_text_with_parent_and_peers() -> None:
    me = _tree()
    expected = (
        "\n"
        "You have a list of other agents to transfer to:\n"
        "\n"
        "\n"
        "Agent name: kid\n"
        "Agent description: kid desc\n"
        "\n"
        "\n"
        "Agent name: root\n"
        "Agent description: root desc\n"
        "\n"
        "\n"
        "Agent name: peer\n"
        "Agent description: peer desc\n"
        "\n"
        "\n"
        "If you are the best to answer the question according to your description,\n"
        "you can answer it.\n"
        "\n"
        "If another agent is better for answering the question according to its\n"
        "description, call `transfer_to_agent` function to transfer the question to that\n"
        "agent. When transferring, do not generate any text other than the function\n"
        "call.\n"
        "\n"
        "**NOTE**: the only available agents for `transfer_to_agent` function are\n"
        "`kid`, `peer`, `root`.\n"
        "\n"
        "If neither you nor the other agents are best for the question, transfer to your parent agent root.\n"
    )
    assert build_transfer_instructions(me, get_transfer_targets(me)) == expected


def test_instruction_text_without_parent_line() -> None:
    me = _tree(to_parent=False, to_peers=False)
    expected = (
        "\nYou have a list of other agents to transfer to:\n\n"
        "\nAgent name: kid\nAgent description: kid desc\n"
        "\n\nIf you are the best to answer the question according to your description,\n"
        "you can answer it.\n\n"
        "If another agent is better for answering the question according to its\n"
        "description, call `transfer_to_agent` function to transfer the question to that\n"
        "agent. When transferring, do not generate any text other than the function\n"
        "call.\n\n"
        "**NOTE**: the only available agents for `transfer_to_agent` function are\n"
        "`kid`.\n"
    )
    assert build_transfer_instructions(me, get_transfer_targets(me)) == expected


def _ctx(agent: LlmAgent) -> InvocationContext:
    return InvocationContext(
        invocation_id="i", agent=agent, session=Session(id="s", app_name="a", user_id="u")
    )


async def test_process_without_targets_changes_nothing() -> None:
    agent = LlmAgent(name="solo")
    request = LlmRequest()
    await agent_transfer.process(_ctx(agent), agent, request)
    assert request.config.system_instruction is None
    assert request.config.tools is None


async def test_process_appends_instructions_and_transfer_tool() -> None:
    pytest.importorskip("adk.tools.transfer_to_agent_tool")
    me = _tree()
    request = LlmRequest()
    request.append_instructions(["before"])
    await agent_transfer.process(_ctx(me), me, request)
    assert request.config.system_instruction == "before\n\n" + build_transfer_instructions(
        me, get_transfer_targets(me)
    )
    assert list(request.tools_dict) == ["transfer_to_agent"]
    assert request.config.tools
    declarations = request.config.tools[0].function_declarations or []  # type: ignore[union-attr]
    assert [d.name for d in declarations] == ["transfer_to_agent"]
    schema = declarations[0].parameters_json_schema
    assert schema["properties"]["agent_name"]["enum"] == ["kid", "root", "peer"]  # type: ignore[index]


async def test_pipeline_orders_instruction_identity_then_transfer() -> None:
    pytest.importorskip("adk.tools.transfer_to_agent_tool")
    from adk.flows.llm_flows.pipeline import build_llm_request

    me = _tree()
    me.instruction = "Be brief."
    request = await build_llm_request(_ctx(me), me)
    assert request.config.system_instruction == (
        "Be brief.\n\n"
        'You are an agent. Your internal name is "me". The description about you is "me desc".'
        "\n\n" + build_transfer_instructions(me, get_transfer_targets(me))
    )


async def test_pipeline_skips_transfer_for_single_flow_agent() -> None:
    from adk.flows.llm_flows.pipeline import build_llm_request

    agent = LlmAgent(name="solo", disallow_transfer_to_parent=True, disallow_transfer_to_peers=True)
    request = await build_llm_request(_ctx(agent), agent)
    assert request.config.system_instruction == 'You are an agent. Your internal name is "solo".'
    assert "transfer_to_agent" not in request.tools_dict
