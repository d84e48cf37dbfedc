"""AgentTool over an agent whose list[Model] answer fails its output_schema, the caller
having an on_tool_error callback: it gets pydantic's ValidationError (class and
text) and its result is the function response; the run goes on."""

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from google.genai import types
from pydantic import BaseModel

TURNS = ["what is the weather in Paris?"]


class Report(BaseModel):
    city: str
    degrees: int


def handled(tool, args, tool_context, error):
    return {"handled": type(error).__name__, "text": str(error)}


def build(scripted):
    call = types.Part.from_function_call
    reporter = LlmAgent(
        name="reporter",
        description="Reports the weather of cities.",
        model=scripted('[{"city": "Paris"}]', model="reporter-model"),
        instruction="Report the weather.",
        output_schema=list[Report],
    )
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="reporter", args={"request": "Paris"}),
            "I could not find out.",
            model="root-model",
        ),
        instruction="Answer with the reporter's help.",
        tools=[AgentTool(agent=reporter)],
        on_tool_error_callback=handled,
    )
