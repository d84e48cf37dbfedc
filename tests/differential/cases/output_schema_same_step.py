"""output_schema with tools: a normal tool and set_model_response called in one step.

Both responses merge into one event (carrying actions.set_model_response), the
final JSON event follows it, and the model is not asked again. A second turn
shows how the answer reads in the next request's contents.
"""

from google.adk.agents import LlmAgent
from google.genai import types
from pydantic import BaseModel

TURNS = ["what is the weather in Paris?", "and in Lyon?"]


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
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            [
                call(name="get_temperature", args={"city": "Paris"}),
                call(name="set_model_response", args={"city": "Paris", "degrees": 21}),
            ],
            [
                call(name="set_model_response", args={"city": "Lyon", "degrees": 19}),
                call(name="get_temperature", args={"city": "Lyon"}),
            ],
        ),
        instruction="Report the weather.",
        tools=[get_temperature],
        output_schema=Report,
        output_key="report",
    )
