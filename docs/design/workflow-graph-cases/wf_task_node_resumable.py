from google.adk.agents import LlmAgent
from google.adk.workflow import START, Workflow
from google.genai import types
from pydantic import BaseModel


class Out(BaseModel):
    title: str


TURNS = ["hello", "more please"]
RESUMABLE = True


def build(scripted):
    task = LlmAgent(
        name="tasker",
        mode="task",
        model=scripted(
            "What size?",
            types.Part(function_call=types.FunctionCall(name="finish_task", args={"title": "T1"})),
            "thanks",
        ),
        instruction="Do the task.",
        output_schema=Out,
    )

    def after(node_input) -> str:
        return f"got {node_input}"

    return Workflow(name="wf", edges=[(START, task, after)])
