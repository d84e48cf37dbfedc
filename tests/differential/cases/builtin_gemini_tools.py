"""Gemini's built-in tools (google_search, url_context, google_maps_grounding,
enterprise_web_search): declared in the request's config as 2.13 declares them; the
model uses them itself, so the answer is one model event. On Gemini 3 they go with
transfer's function call; before 3, an agent with a search tool whose only transfer
targets are its parent and peers gets no transfer tool at all (2.13's rule)."""

from google.adk.agents import LlmAgent
from google.adk.tools import (
    enterprise_web_search,
    google_maps_grounding,
    google_search,
    url_context,
)
from google.genai import types

TURNS = ["what's new in Lyon?", "and at https://example.com/news?"]


def build(scripted):
    searcher = LlmAgent(
        name="searcher",
        instruction="Search the web.",
        tools=[google_search],
        model=scripted(
            [types.Part(text="A new tram line.")],
            [types.Part(text="It says: more trams.")],
            model="gemini-2.5-flash",
        ),
    )
    return LlmAgent(
        name="reader",
        instruction="Read pages and places; hand web searches to searcher.",
        tools=[url_context, google_maps_grounding, enterprise_web_search],
        sub_agents=[searcher],
        model=scripted(
            [
                types.Part.from_function_call(
                    name="transfer_to_agent", args={"agent_name": "searcher"}
                )
            ],
            model="gemini-2.5-flash",
        ),
    )
