"""VertexAiSearchTool where 2.13 refuses it, the session going on after each: on a
model that is not Gemini, and beside transfer targets on a Gemini model before 3
without bypass_multi_tools_limit (2.13's error). On Gemini 3 it goes with transfer."""

from google.adk.agents import LlmAgent
from google.adk.tools.vertex_ai_search_tool import VertexAiSearchTool
from google.genai import types

STORE = "projects/p/locations/global/collections/default_collection/dataStores/faq"

TURNS = ["search with the other model", "let legacy search"]
CONTINUE_AFTER_RAISE = True


def build(scripted):
    def transfer(name):
        return types.Part.from_function_call(name="transfer_to_agent", args={"agent_name": name})

    other = LlmAgent(
        name="other",
        description="Searches with a model that is not Gemini.",
        tools=[VertexAiSearchTool(data_store_id=STORE)],
        model=scripted(model="kit-other"),
    )
    helper = LlmAgent(name="helper", description="Helps.", model=scripted(model="kit-helper"))
    legacy = LlmAgent(
        name="legacy",
        description="Searches on Gemini 2.5.",
        tools=[VertexAiSearchTool(data_store_id=STORE)],
        sub_agents=[helper],
        model=scripted(model="gemini-2.5-flash"),
    )
    return LlmAgent(
        name="router",
        instruction="Search the faq, or hand over.",
        tools=[VertexAiSearchTool(data_store_id=STORE, filter='lang: ANY("fr")')],
        sub_agents=[other, legacy],
        model=scripted(transfer("other"), transfer("legacy"), model="gemini-3-pro-preview"),
    )
