"""google/adk-python contributing/samples/quickstart: the weather/time agent, two tools.

Ported as written; the model is the kit's scripted one. The time tool's clock
is fixed (the sample reads the wall clock, which differs between the two runs).
"""

from google.adk.agents import Agent
from google.genai import types

TURNS = ["What is the weather in New York?", "And the time in Paris?"]


def get_weather(city: str) -> dict:
    """Retrieves the current weather report for a specified city.

    Args:
        city (str): The name of the city for which to retrieve the weather report.

    Returns:
        dict: status and result or error msg.
    """
    if city.lower() == "new york":
        return {
            "status": "success",
            "report": (
                "The weather in New York is sunny with a temperature of 25 degrees"
                " Celsius (77 degrees Fahrenheit)."
            ),
        }
    else:
        return {
            "status": "error",
            "error_message": f"Weather information for '{city}' is not available.",
        }


def get_current_time(city: str) -> dict:
    """Returns the current time in a specified city.

    Args:
        city (str): The name of the city for which to retrieve the current time.

    Returns:
        dict: status and result or error msg.
    """
    if city.lower() == "new york":
        tz_identifier = "America/New_York"
    else:
        return {
            "status": "error",
            "error_message": (f"Sorry, I don't have timezone information for {city}."),
        }
    report = f"The current time in {city} is 2025-01-01 10:00:00 ({tz_identifier})"
    return {"status": "success", "report": report}


def build(scripted):
    call = types.Part.from_function_call
    return Agent(
        name="weather_time_agent",
        model=scripted(
            [
                call(name="get_weather", args={"city": "New York"}),
                call(name="get_current_time", args={"city": "New York"}),
            ],
            "It is sunny, 25 C, and 10:00 in New York.",
            call(name="get_current_time", args={"city": "Paris"}),
            "I don't have timezone information for Paris.",
            model="gemini-2.0-flash",
        ),
        description=("Agent to answer questions about the time and weather in a city."),
        instruction=("I can answer your questions about the time and weather in a city."),
        tools=[get_weather, get_current_time],
    )
