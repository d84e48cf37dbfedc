"""An agent given `generate_content_config=None` (2.13 validates it into an empty
GenerateContentConfig) transfers to one given a config; the requests carry each
agent's config, the sub-agent's with its sampling settings."""

from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["hello", "again"]


def build(scripted):
    call = types.Part.from_function_call
    helper = LlmAgent(
        name="helper",
        description="Helps.",
        model=scripted("Helped.", "Helped again.", model="helper-model"),
        generate_content_config=types.GenerateContentConfig(temperature=0.3, top_k=4),
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "helper"}), model="desk-model"
        ),
        instruction="Route.",
        generate_content_config=None,
        sub_agents=[helper],
    )
