"""output_schema=list[Model] with tools: set_model_response takes one `items` argument
(a list of the model); items that fail the model go back to the model as a
validation error, then valid items end the run, output_key holding the list."""

from google.adk.agents import LlmAgent
from google.genai import types
from pydantic import BaseModel, Field

TURNS = ["what is the weather in Paris and Rome?"]


class Report(BaseModel):
    city: str = Field(description="The city reported on.")
    degrees: int
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
            call(name="get_temperature", args={"city": "Paris"}),
            call(name="set_model_response", args={"items": [{"city": "Paris"}]}),
            call(
                name="set_model_response",
                args={"items": [{"city": "Paris", "degrees": 21}, {"city": "Rome", "degrees": 24}]},
            ),
        ),
        instruction="Report the weather.",
        tools=[get_temperature],
        output_schema=list[Report],
        output_key="reports",
    )
