"""RunConfig.include_thoughts_from_other_agents: another agent's thoughts reach the request."""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.agents.run_config import RunConfig
from google.genai import types

TURNS = ["plan a trip"]
RUN_CONFIG = RunConfig(include_thoughts_from_other_agents=True)


def build(scripted):
    planner = LlmAgent(
        name="planner",
        model=scripted(
            [
                types.Part(text="Paris is close; trains are quick.", thought=True),
                types.Part(text="Go to Paris."),
            ],
            model="planner-model",
        ),
        instruction="Plan.",
    )
    writer = LlmAgent(
        name="writer",
        model=scripted("A trip to Paris, by train.", model="writer-model"),
        instruction="Write the plan up.",
    )
    return SequentialAgent(name="root", sub_agents=[planner, writer])
