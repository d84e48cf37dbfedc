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
