"""GoogleSearchTool(bypass_multi_tools_limit=True) beside another tool: 2.13 runs the
search in an agent of its own (google_search_agent, an AgentTool over the parent's
model with google_search only); its answer's grounding metadata is carried to the
parent's following model responses (propagate_grounding_metadata)."""

from google.adk.agents import LlmAgent
from google.adk.tools.google_search_tool import GoogleSearchTool
from google.genai import types

TURNS = ["what's the weather news in Lyon?", "thanks"]

GROUNDING = types.GroundingMetadata(
    web_search_queries=["weather Lyon"],
    grounding_chunks=[
        types.GroundingChunk(web=types.GroundingChunkWeb(uri="https://example.com", title="ex"))
    ],
)


def get_weather(city: str) -> dict:
    """Returns the weather in a city.

    Args:
      city: The city.
    """
    return {"city": city, "sky": "sunny"}


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="assistant",
        instruction="Answer with search and the weather tool.",
        tools=[GoogleSearchTool(bypass_multi_tools_limit=True), get_weather],
        model=scripted(
            call(name="google_search_agent", args={"request": "weather news Lyon"}),
            # the search agent's own call (the same model)
            {"content": "Lyon expects sun all week.", "grounding_metadata": GROUNDING},
            call(name="get_weather", args={"city": "Lyon"}),
            "Sunny in Lyon, and all week.",
            "You're welcome.",
            model="gemini-2.5-flash",
        ),
    )
