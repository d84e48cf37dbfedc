"""RunConfig.labels: merged into each request's labels, over the agent's own."""

from google.adk.agents import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.genai import types

TURNS = ["hi", "again"]
RUN_CONFIG = RunConfig(labels={"team": "b", "run": "nightly"})


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted("hello", "hello again"),
        instruction="Greet.",
        generate_content_config=types.GenerateContentConfig(labels={"team": "a", "tier": "x"}),
    )
