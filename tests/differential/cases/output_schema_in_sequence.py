"""A SequentialAgent: the first agent answers through set_model_response, the next reads it.

The final JSON event's output_key state reaches the next agent's instruction
template, and its JSON text the next agent's contents.
"""

from google.adk.agents import LlmAgent, SequentialAgent
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
    reporter = LlmAgent(
        name="reporter",
        model=scripted(
            call(name="get_temperature", args={"city": "Paris"}),
            call(name="set_model_response", args={"city": "Paris", "degrees": 21}),
            model="reporter-model",
        ),
        instruction="Report the weather.",
        tools=[get_temperature],
        output_schema=Report,
        output_key="report",
    )
    writer = LlmAgent(
        name="writer",
        model=scripted("Paris: 21 degrees.", model="writer-model"),
        instruction="Write up this report: {report}",
    )
    return SequentialAgent(name="root", sub_agents=[reporter, writer])
