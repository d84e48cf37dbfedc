"""output_schema as a google-genai types.Schema with tools: the model answers through
set_model_response, whose one `response` argument is a free object; the value it
gives is the final answer (as JSON text) and output_key's value, unchecked.

The second agent, in sequence, has a types.Schema and no tools: the Schema goes
into the request as the response schema."""

from google.adk.agents import LlmAgent, SequentialAgent
from google.genai import types

TURNS = ["what is the weather in Paris?"]

REPORT = types.Schema(
    type=types.Type.OBJECT,
    properties={
        "city": types.Schema(type=types.Type.STRING, description="The city."),
        "degrees": types.Schema(type=types.Type.INTEGER),
    },
    required=["city", "degrees"],
)


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
            call(name="set_model_response", args={"response": {"city": "Paris", "degrees": 21}}),
            model="reporter-model",
        ),
        instruction="Report the weather.",
        tools=[get_temperature],
        output_schema=REPORT,
        output_key="report",
    )
    summary = LlmAgent(
        name="summary",
        model=scripted('{"city": "Paris", "degrees": "21"}', model="summary-model"),
        instruction="Summarise {report}.",
        output_schema=REPORT,
        output_key="summary",
    )
    return SequentialAgent(name="root", sub_agents=[reporter, summary])
