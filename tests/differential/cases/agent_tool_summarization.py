"""AgentTool with and without skip_summarization."""

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from google.genai import types

TURNS = ["ask the helper", "ask the summarizer"]


def build(scripted):
    call = types.Part.from_function_call
    helper = LlmAgent(
        name="helper",
        description="Answers questions.",
        model=scripted("helper answer", model="model-helper"),
        instruction="You help.",
    )
    summarizer = LlmAgent(
        name="summarizer",
        description="Summarises text.",
        model=scripted("short summary", model="model-summarizer"),
        instruction="You summarise.",
        output_key="summary",
    )
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="helper", args={"request": "what is 2+2?"}),
            "The helper says 4.",
            call(name="summarizer", args={"request": "a long text"}),
            model="model-root",
        ),
        instruction="Use your tools.",
        output_key="root_out",
        tools=[AgentTool(agent=helper), AgentTool(agent=summarizer, skip_summarization=True)],
    )
