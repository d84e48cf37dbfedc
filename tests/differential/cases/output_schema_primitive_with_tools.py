"""output_schema=list[str] with tools: set_model_response takes one `response` argument,
returned as given (no validation). A call without it gives nothing: no final
answer, the model is asked again; the next call's list ends the run and is
output_key's value."""

from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["which cities are warm?"]


def get_temperature(city: str) -> dict:
    """Gets the temperature of a city.

    Args:
      city: The city.
    """
    return {"city": city, "degrees": 21}


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="get_temperature", args={"city": "Rome"}),
            call(name="set_model_response", args={}),
            call(name="set_model_response", args={"response": ["Rome"]}),
        ),
        instruction="Name warm cities.",
        tools=[get_temperature],
        output_schema=list[str],
        output_key="warm",
    )
