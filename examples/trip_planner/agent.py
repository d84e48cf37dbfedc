"""Trip planner: an agent that plans before it acts (PlanReActPlanner), served durably
(`python -m worker examples/trip_planner`).

PlanReActPlanner adds google-adk 2.13's planning instruction to every request; the
model answers in tagged sections. Text under /*PLANNING*/, /*REASONING*/ or
/*ACTION*/ becomes a thought (kept in the event, marked `thought`), text after
/*FINAL_ANSWER*/ is the answer. Each planning step is the model step's activity
(`model … · planner PlanReActPlanner` in the Web UI), each tool call its own.

With GOOGLE_API_KEY (or GEMINI_API_KEY, or Vertex settings) it uses Gemini;
otherwise an offline model that plans, looks the distance up, then answers.
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator

from google.genai import types

from adk import Agent
from adk.models import BaseLlm, LlmRequest, LlmResponse
from adk.planners import PlanReActPlanner

DISTANCES_KM = {("paris", "lyon"): 465, ("paris", "brussels"): 312, ("lyon", "geneva"): 150}


def get_distance(origin: str, destination: str) -> dict:
    """Returns the road distance between two cities, in kilometres.

    Args:
      origin: The city to leave from.
      destination: The city to arrive at.
    """
    key = tuple(sorted((origin.lower(), destination.lower())))
    km = next((d for pair, d in DISTANCES_KM.items() if tuple(sorted(pair)) == key), None)
    if km is None:
        return {"error": f"no route known between {origin} and {destination}"}
    return {"origin": origin, "destination": destination, "km": km}


class OfflinePlannerModel(BaseLlm):
    """Offline stand-in: a plan and the lookup, then reasoning and the final answer."""

    model: str = "offline-planner-model"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        answer = next((p.function_response for p in last.parts or [] if p.function_response), None)
        if answer is None:
            parts = [
                types.Part(
                    text="/*PLANNING*/\n1. Look up the road distance.\n"
                    "2. Estimate the driving time at 90 km/h.\n/*ACTION*/\n"
                ),
                types.Part.from_function_call(
                    name="get_distance", args={"origin": "Paris", "destination": "Lyon"}
                ),
            ]
        else:
            km = (answer.response or {}).get("km", 0)
            parts = [
                types.Part(
                    text=f"/*REASONING*/\n{km} km at 90 km/h is about {km / 90:.1f} hours.\n"
                    f"/*FINAL_ANSWER*/Paris to Lyon is {km} km: about {km / 90:.1f} hours"
                    " by car."
                )
            ]
        yield LlmResponse(content=types.Content(role="model", parts=parts))


def _model() -> str | BaseLlm:
    has_key = os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")
    vertex = os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in ("1", "true")
    return "gemini-2.5-flash" if (has_key or vertex) else OfflinePlannerModel()


root_agent = Agent(
    name="trip_planner",
    model=_model(),
    description="Plans road trips.",
    instruction="Help the user plan road trips. Use get_distance for distances.",
    planner=PlanReActPlanner(),
    tools=[get_distance],
)
