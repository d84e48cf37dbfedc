"""AgentTool over an agent with output_schema (a model class, no output_key) that
answers text that is not JSON: validating the answer as the tool's result fails."""

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from google.genai import types
from pydantic import BaseModel

TURNS = ["what is the weather in Paris?"]


class Report(BaseModel):
    city: str
    degrees: int


def build(scripted):
    call = types.Part.from_function_call
    reporter = LlmAgent(
        name="reporter",
        description="Reports the weather of a city.",
        model=scripted("It is warm.", model="reporter-model"),
        instruction="Report the weather.",
        output_schema=Report,
    )
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="reporter", args={"request": "Paris"}),
            "It is warm in Paris.",
            model="root-model",
        ),
        instruction="Answer with the reporter's help.",
        tools=[AgentTool(agent=reporter)],
    )
