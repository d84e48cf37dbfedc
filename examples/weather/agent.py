"""Weather assistant: one agent, one tool, state across turns.

With GOOGLE_API_KEY (or GEMINI_API_KEY, or Vertex settings) in the worker's
environment it uses Gemini; otherwise an offline scripted model that reads the
request (so it works after a worker restart, too).
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncGenerator

from google.genai import types

from adk import Agent
from adk.models import BaseLlm, LlmRequest, LlmResponse
from adk.tools import ToolContext

WEATHER = {
    "paris": {"temp_c": 18, "condition": "partly cloudy"},
    "london": {"temp_c": 14, "condition": "rainy"},
    "tokyo": {"temp_c": 22, "condition": "sunny"},
    "new york": {"temp_c": 21, "condition": "clear"},
}


def get_weather(city: str, tool_context: ToolContext) -> dict:
    """Returns the current weather in a city.

    Args:
      city: The city's name, e.g. "Paris".
    """
    tool_context.state["last_city"] = city
    tool_context.state["user:query_count"] = tool_context.state.get("user:query_count", 0) + 1
    report = WEATHER.get(city.strip().lower())
    if report is None:
        return {"status": "error", "error_message": f"No weather data for {city}."}
    return {"status": "success", "city": city, **report}


class OfflineWeatherModel(BaseLlm):
    """A stand-in for Gemini: asks for the weather, then reports the tool's answer."""

    model: str = "offline-weather-model"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        response = next(
            (p.function_response for p in last.parts or [] if p.function_response), None
        )
        if response is not None:
            data = response.response or {}
            if data.get("status") == "success":
                text = f"It is {data['condition']} and {data['temp_c']}°C in {data['city']}."
            else:
                text = f"Sorry: {data.get('error_message') or data.get('error')}"
            part = types.Part(text=text)
        else:
            said = " ".join(p.text or "" for p in last.parts or [])
            match = re.search(r"in ([A-Z][\w ]*?)(?:[?.!,]|$)", said)
            city = match.group(1).strip() if match else "Paris"
            part = types.Part.from_function_call(name="get_weather", args={"city": city})
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def _model() -> str | BaseLlm:
    if os.environ.get("WEATHER_MODEL"):
        return os.environ["WEATHER_MODEL"]
    has_key = os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")
    vertex = os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in ("1", "true")
    return "gemini-2.5-flash" if (has_key or vertex) else OfflineWeatherModel()


root_agent = Agent(
    name="weather_agent",
    model=_model(),
    description="Answers questions about the weather.",
    instruction=(
        "You help {user:name}. Use the get_weather tool to answer weather questions."
        " Last city: {last_city?}"
    ),
    tools=[get_weather],
    output_key="last_answer",
)
