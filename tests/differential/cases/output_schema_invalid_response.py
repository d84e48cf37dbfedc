"""output_schema with tools: set_model_response args that fail the schema, then fixed.

The validation error goes back to the model as the tool's response (no final
event, no output_key); the model calls again with valid args and that ends the run.
The schema's Field descriptions and an optional field shape the declaration.
"""

from google.adk.agents import LlmAgent
from google.genai import types
from pydantic import BaseModel, Field

TURNS = ["what is the weather in Paris?"]


class Report(BaseModel):
    city: str = Field(description="The city reported on.")
    degrees: int = Field(description="Degrees Celsius.")
    note: str | None = None


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
            call(name="set_model_response", args={"city": "Paris", "degrees": "warm"}),
            call(name="set_model_response", args={"city": "Paris"}),
            call(name="set_model_response", args={"city": "Paris", "degrees": 21}),
        ),
        instruction="Report the weather.",
        tools=[get_temperature],
        output_schema=Report,
        output_key="report",
    )
