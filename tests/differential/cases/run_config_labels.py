"""RunConfig.labels: merged into each request's labels, over the agent's own.

The RunConfig is also what a tool, a callback and an instruction provider read
from their context (ReadonlyContext.run_config).
"""

from google.adk.agents import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["hi", "again"]
RUN_CONFIG = RunConfig(labels={"team": "b", "run": "nightly"})


def run_labels(tool_context: ToolContext) -> dict:
    """Gets the labels of this run."""
    return {"labels": tool_context.run_config.labels}


def instruction(ctx) -> str:
    return f"Greet. Run labels: {sorted(ctx.run_config.labels)}."


def note_labels(callback_context, llm_request):
    callback_context.state["seen_labels"] = callback_context.run_config.labels


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(call(name="run_labels", args={}), "hello", "hello again"),
        instruction=instruction,
        tools=[run_labels],
        before_model_callback=note_labels,
        generate_content_config=types.GenerateContentConfig(labels={"team": "a", "tier": "x"}),
    )
