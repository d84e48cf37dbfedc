"""AgentTool(skip_summarization=True) over an agent with output_schema=list[Model]: the
validated list is the function response ({"result": [...]}) and the caller's run
ends on it, unsummarised."""

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from google.genai import types
from pydantic import BaseModel

TURNS = ["which cities?"]


class City(BaseModel):
    name: str
    country: str | None = None


def build(scripted):
    call = types.Part.from_function_call
    lister = LlmAgent(
        name="lister",
        description="Lists cities.",
        model=scripted('[{"name": "Paris", "country": null}, {"name": "Rome"}]', model="lister"),
        instruction="List cities.",
        output_schema=list[City],
    )
    return LlmAgent(
        name="root",
        model=scripted(call(name="lister", args={"request": "cities"}), model="root-model"),
        instruction="Answer with the lister's help.",
        tools=[AgentTool(agent=lister, skip_summarization=True)],
    )
