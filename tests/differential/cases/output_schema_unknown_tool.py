"""output_schema with tools and a sub-agent: the model names a tool that does not exist.

The error response lists the tools the request declared, in its order
(set_model_response, transfer_to_agent, the agent's own); then the model answers.
"""

from google.adk.agents import LlmAgent
from google.genai import types
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
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="get_forecast", args={"city": "Paris"}),
            call(name="set_model_response", args={"city": "Paris", "degrees": 21}),
        ),
        instruction="Report the weather.",
        tools=[get_temperature],
        output_schema=Report,
        output_key="report",
        sub_agents=[LlmAgent(name="helper", model=scripted(model="helper-model"))],
    )
