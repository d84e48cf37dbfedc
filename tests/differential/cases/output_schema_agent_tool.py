"""An AgentTool whose agent has output_schema and tools: it answers through set_model_response.

The inner agent's final JSON event is its answer: the caller gets the validated
dict as the tool's response.
"""

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
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
        description="Reports the weather of a city.",
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
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="reporter", args={"request": "Paris"}),
            "It is 21 degrees in Paris.",
            model="root-model",
        ),
        instruction="Answer with the reporter's help.",
        tools=[AgentTool(agent=reporter)],
    )
