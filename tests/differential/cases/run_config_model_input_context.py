"""RunConfig.model_input_context: contents put before the user's message in each request."""

from google.adk.agents import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.genai import types

TURNS = ["what is my plan?", "and after that?"]
RUN_CONFIG = RunConfig(
    model_input_context=[
        types.Content(role="user", parts=[types.Part(text="The user is on the gold plan.")]),
        types.Content(role="model", parts=[types.Part(text="Noted.")]),
    ]
)


def get_plan() -> dict:
    """Gets the user's plan."""
    return {"plan": "gold"}


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(call(name="get_plan", args={}), "gold", "platinum next"),
        instruction="Answer.",
        tools=[get_plan],
    )
