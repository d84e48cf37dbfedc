"""output_schema with tools: the model answers in text instead of set_model_response.

The text is a final response: saving it under output_key validates it against
the schema, which fails, and the invocation raises that error.
"""

from google.adk.agents import LlmAgent
from pydantic import BaseModel

TURNS = ["what is the weather in Paris?"]


class Report(BaseModel):
    city: str
    degrees: int


def get_temperature(city: str) -> dict:
    """Gets the temperature of a city.

    Args:
      city: The city.
    """
    return {"city": city, "degrees": 21}


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted("It is 21 degrees in Paris."),
        instruction="Report the weather.",
        tools=[get_temperature],
        output_schema=Report,
        output_key="report",
    )
