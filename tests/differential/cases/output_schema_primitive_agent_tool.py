"""AgentTool over agents whose output_schema is not a model class: list[str] (its
answer reaches the caller as {"result": [...]}) and a JSON schema dict (the
parsed object is the response). On Vertex AI both would declare an object
response; here the Gemini API declares none."""

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from google.genai import types

TURNS = ["plan a trip"]


def build(scripted):
    call = types.Part.from_function_call
    lister = LlmAgent(
        name="lister",
        description="Lists cities.",
        model=scripted('["Paris", "Rome"]', model="lister-model"),
        instruction="List cities.",
        output_schema=list[str],
    )
    picker = LlmAgent(
        name="picker",
        description="Picks a city.",
        model=scripted('```json\n{"pick": "Rome", "why": null}\n```', model="picker-model"),
        instruction="Pick a city.",
        output_schema={"type": "object", "properties": {"pick": {"type": "string"}}},
        output_key="pick",
    )
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="lister", args={"request": "cities"}),
            call(name="picker", args={"request": "Paris or Rome"}),
            "Go to Rome.",
            model="root-model",
        ),
        instruction="Plan with the helpers.",
        tools=[AgentTool(agent=lister), AgentTool(agent=picker)],
    )
