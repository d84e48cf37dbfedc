"""Gemini's built-in tools: declarations, model checks and the transfer rule, as
google-adk 2.13.

Runs on: test process only.
"""

from __future__ import annotations

import pytest
from google.genai import types

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent as RefAgent  # noqa: E402
from google.adk.flows.llm_flows.extensions._agent_transfer import (  # noqa: E402
    _get_incompatible_builtin_tool_error as ref_error,
)
from google.adk.tools import enterprise_web_search as ref_enterprise  # noqa: E402
from google.adk.tools import google_search as ref_search  # noqa: E402
from google.adk.tools.google_search_tool import GoogleSearchTool as RefSearch  # noqa: E402

from adk import Agent  # noqa: E402
from adk.agents import InvocationContext  # noqa: E402
from adk.flows.llm_flows import agent_transfer  # noqa: E402
from adk.models.llm_request import LlmRequest  # noqa: E402
from adk.sessions import Session  # noqa: E402
from adk.tools import (  # noqa: E402
    enterprise_web_search,
    google_maps_grounding,
    google_search,
    url_context,
)
from adk.tools.google_search_tool import GoogleSearchTool  # noqa: E402
from adk.tools.tool_context import ToolContext  # noqa: E402


def _context(agent: Agent) -> InvocationContext:
    return InvocationContext(
        invocation_id="i", agent=agent, session=Session(id="s", app_name="a", user_id="u")
    )


@pytest.mark.parametrize(
    ("tool", "declared"),
    [
        (google_search, types.Tool(google_search=types.GoogleSearch())),
        (url_context, types.Tool(url_context=types.UrlContext())),
        (google_maps_grounding, types.Tool(google_maps=types.GoogleMaps())),
        (enterprise_web_search, types.Tool(enterprise_web_search=types.EnterpriseWebSearch())),
    ],
)
async def test_declared_for_gemini_refused_for_other_models(tool, declared) -> None:
    context = ToolContext(_context(Agent(name="a")))
    request = LlmRequest(model="gemini-2.5-flash")
    await tool.process_llm_request(tool_context=context, llm_request=request)
    assert request.config.tools == [declared]
    with pytest.raises(ValueError, match="is not supported for model gpt-4o"):
        await tool.process_llm_request(tool_context=context, llm_request=LlmRequest(model="gpt-4o"))


async def test_search_tool_model_overrides_the_request_model() -> None:
    request = LlmRequest(model="gemini-2.5-flash")
    tool = GoogleSearchTool(model="gemini-2.5-pro")
    await tool.process_llm_request(
        tool_context=ToolContext(_context(Agent(name="a"))), llm_request=request
    )
    assert request.model == "gemini-2.5-pro"


@pytest.mark.parametrize("model", ["gemini-2.5-flash", "gemini-3-pro-preview"])
@pytest.mark.parametrize("kind", ["search", "enterprise", "search_bypass"])
async def test_search_beside_transfer_to_a_sub_agent_as_google_adk(model: str, kind: str) -> None:
    ours_tool, ref_tool = {
        "search": (google_search, ref_search),
        "enterprise": (enterprise_web_search, ref_enterprise),
        "search_bypass": (
            GoogleSearchTool(bypass_multi_tools_limit=True),
            RefSearch(bypass_multi_tools_limit=True),
        ),
    }[kind]
    ours = Agent(name="root", model=model, tools=[ours_tool], sub_agents=[Agent(name="helper")])
    reference = RefAgent(
        name="root", model=model, tools=[ref_tool], sub_agents=[RefAgent(name="helper")]
    )
    expected = ref_error(reference, model)
    assert agent_transfer.incompatible_builtin_tool_error(ours, model) == expected
    request = LlmRequest(model=model)
    if expected:
        with pytest.raises(
            ValueError,
            match="^"
            + expected.replace("(", r"\(")
            .replace(")", r"\)")
            .replace(".", r"\.")
            .replace("+", r"\+"),
        ):
            await agent_transfer.process(_context(ours), ours, request)
    else:
        await agent_transfer.process(_context(ours), ours, request)
        assert "transfer_to_agent" in request.tools_dict


def _noop() -> dict:
    """Does nothing."""
    return {}


@pytest.mark.parametrize(
    "tools, sub_agents, swapped",
    [
        ([_noop], [], True),  # beside another tool
        ([], ["helper"], True),  # beside a transfer target
        ([], [], False),  # alone: Gemini's built-in search, declared in the config
    ],
    ids=["beside a tool", "beside a transfer target", "alone"],
)
async def test_a_bypassing_search_runs_as_its_own_agent_as_google_adk(
    tools: list, sub_agents: list, swapped: bool
) -> None:
    from activities._spec import build_spec
    from adk.plugins.plugin_manager import PluginManager
    from adk.tools.google_search_agent_tool import GoogleSearchAgentTool

    search = GoogleSearchTool(bypass_multi_tools_limit=True)
    agent = Agent(
        name="root",
        model="gemini-2.5-flash",
        tools=[search, *tools],
        sub_agents=[Agent(name=n) for n in sub_agents],
    )
    reference = RefAgent(
        name="root",
        model="gemini-2.5-flash",
        tools=[RefSearch(bypass_multi_tools_limit=True), *tools],
        sub_agents=[RefAgent(name=n) for n in sub_agents],
    )
    ours = await agent.canonical_tools()
    theirs = await reference.canonical_tools()
    assert [(type(t).__name__, t.name) for t in ours] == [
        (type(t).__name__, t.name) for t in theirs
    ]
    assert isinstance(ours[0], GoogleSearchAgentTool) == swapped
    if swapped:  # the same agent at every step, and in the spec the workflow runs
        assert (await agent.canonical_tools())[0] is ours[0]
        assert ours[0].propagate_grounding_metadata
        spec = build_spec(agent, PluginManager())
        tool_spec = spec.tool("google_search_agent")
        assert tool_spec is not None and tool_spec.kind == "agent"
        assert tool_spec.agent is not None and tool_spec.agent.name == "google_search_agent"
        ref_agent = theirs[0].agent
        assert (ours[0].agent.description, ours[0].agent.instruction) == (
            ref_agent.description,
            ref_agent.instruction,
        )


def test_two_agents_running_a_search_agent_fail_to_load_saying_why() -> None:
    from worker._validate import AgentTreeError, validate_tree

    def searcher(name: str) -> Agent:
        return Agent(name=name, tools=[GoogleSearchTool(bypass_multi_tools_limit=True), _noop])

    root = Agent(name="root", model="gemini-2.5-flash", sub_agents=[searcher("a"), searcher("b")])
    with pytest.raises(AgentTreeError, match="More than one agent uses GoogleSearchTool"):
        validate_tree(root)
    validate_tree(Agent(name="root", model="gemini-2.5-flash", sub_agents=[searcher("a")]))


def test_vertex_ai_search_refuses_what_google_adk_refuses() -> None:
    from google.adk.tools import VertexAiSearchTool as RefVertex

    from adk.tools import VertexAiSearchTool

    for kwargs in (
        {},
        {"data_store_id": "d", "search_engine_id": "e"},
        {"data_store_id": "d", "data_store_specs": []},
    ):
        with pytest.raises(ValueError) as ours:
            VertexAiSearchTool(**kwargs)
        with pytest.raises(ValueError) as reference:
            RefVertex(**kwargs)
        assert str(ours.value) == str(reference.value)


async def test_vertex_ai_search_bypass_beside_other_tools_is_not_silently_dropped() -> None:
    """2.13 swaps in a DiscoveryEngineSearchTool there; ours says it lacks one."""
    from adk.tools import VertexAiSearchTool

    search = VertexAiSearchTool(data_store_id="d", bypass_multi_tools_limit=True)
    alone = Agent(name="alone", model="gemini-2.5-flash", tools=[search])
    assert await alone.canonical_tools() == [search]
    beside = Agent(name="beside", model="gemini-2.5-flash", tools=[search, lambda: None])
    with pytest.raises(NotImplementedError, match="DiscoveryEngineSearchTool"):
        await beside.canonical_tools()
