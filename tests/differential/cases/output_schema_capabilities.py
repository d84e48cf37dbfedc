"""A custom model that declares `capabilities` (output_schema_and_tools=True): 2.13
sends the response schema with the tools and no set_model_response tool, and the
answer is the model's JSON text; a sub-agent without a model of its own inherits it.
"""

from typing import Any

from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm, LlmCapabilities
from google.genai import types
from pydantic import BaseModel

TURNS = ["what is the weather in Paris?", "and in Lyon, in detail?"]


class Report(BaseModel):
    city: str
    degrees: int


class Capable(BaseLlm):
    """Wraps the scripted model; says it takes an output schema with tools."""

    inner: Any

    @property
    def capabilities(self) -> LlmCapabilities:
        return LlmCapabilities(output_schema_and_tools=True)

    async def generate_content_async(self, llm_request, stream=False):
        async for response in self.inner.generate_content_async(llm_request, stream):
            yield response


def get_temperature(city: str) -> dict:
    """Gets the temperature of a city.

    Args:
      city: The city.
    """
    return {"city": city, "degrees": 21}


def build(scripted):
    call = types.Part.from_function_call
    detail = LlmAgent(
        name="detail",
        description="Detailed reports.",
        tools=[get_temperature],
        output_schema=Report,
        disallow_transfer_to_parent=True,
        disallow_transfer_to_peers=True,
    )
    return LlmAgent(
        name="root",
        model=Capable(
            model="my-model",
            inner=scripted(
                call(name="get_temperature", args={"city": "Paris"}),
                '{"city": "Paris", "degrees": 21}',
                call(name="transfer_to_agent", args={"agent_name": "detail"}),
                call(name="get_temperature", args={"city": "Lyon"}),
                '{"city": "Lyon", "degrees": 21}',
                model="my-model",
            ),
        ),
        instruction="Report the weather.",
        tools=[get_temperature],
        sub_agents=[detail],
        output_schema=Report,
        output_key="report",
    )
