"""GoogleSearchTool(bypass_multi_tools_limit=True) as the only tool of an agent with a
sub-agent (a transfer target): 2.13 counts the target as another tool, so the search
runs in its own agent (separate script) and transfer_to_agent is declared beside it;
then the agent transfers to the sub-agent, whose answer carries no grounding."""

from google.adk.agents import LlmAgent
from google.adk.tools.google_search_tool import GoogleSearchTool
from google.genai import types

TURNS = ["search Lyon news, then let the helper answer"]

GROUNDING = types.GroundingMetadata(web_search_queries=["Lyon news"])


def build(scripted):
    call = types.Part.from_function_call
    helper = LlmAgent(
        name="helper",
        description="Answers politely.",
        model=scripted("Here you are: trams.", model="gemini-2.5-flash"),
    )
    return LlmAgent(
        name="router",
        instruction="Search, then hand over.",
        tools=[GoogleSearchTool(bypass_multi_tools_limit=True)],
        sub_agents=[helper],
        model=scripted(
            call(name="google_search_agent", args={"request": "Lyon news"}),
            {"content": "New tram line.", "grounding_metadata": GROUNDING},
            call(name="transfer_to_agent", args={"agent_name": "helper"}),
            model="gemini-2.5-flash",
        ),
    )
