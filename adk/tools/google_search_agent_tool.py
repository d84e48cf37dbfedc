"""GoogleSearchAgentTool: Google Search run by an agent of its own, beside other tools.

Runs on: activity side (its agent runs as an AgentTool's child workflow). Mirrors
google.adk.tools.google_search_agent_tool: Gemini's built-in search cannot share a
request with function declarations, so an agent with other tools (or transfer
targets) and `GoogleSearchTool(bypass_multi_tools_limit=True)` calls this agent
instead (LlmAgent swaps it in); its answer's grounding metadata is carried to
the calling agent's later responses (propagate_grounding_metadata).
"""

from __future__ import annotations

from ..agents.llm_agent import LlmAgent
from ..models.base_llm import BaseLlm
from .agent_tool import AgentTool
from .google_search_tool import google_search


def create_google_search_agent(model: str | BaseLlm) -> LlmAgent:
    """The sub-agent that only searches (2.13's name, description and instruction)."""
    return LlmAgent(
        name="google_search_agent",
        model=model,
        description="An agent for performing Google search using built-in search grounding",
        instruction="""
        You are a specialized Google search agent.

        Answer the given search query directly using your built-in Google Search
        grounding capabilities. Do not attempt to invoke a client-side function
        call.
      """,
        tools=[google_search],
    )


class GoogleSearchAgentTool(AgentTool):
    """An AgentTool over a google_search-only agent, carrying its grounding metadata."""

    def __init__(self, agent: LlmAgent):
        self.agent = agent
        super().__init__(agent=self.agent, propagate_grounding_metadata=True)
