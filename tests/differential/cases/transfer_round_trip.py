"""Transfer between three agents and back: root -> a -> b -> root."""

from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["start", "again"]


def build(scripted):
    def transfer(name):
        return types.Part.from_function_call(name="transfer_to_agent", args={"agent_name": name})

    a = LlmAgent(
        name="a",
        description="Agent a.",
        model=scripted("a speaks", transfer("b"), model="model-a"),
        instruction="You are a.",
    )
    b = LlmAgent(
        name="b",
        description="Agent b.",
        model=scripted(transfer("root"), model="model-b"),
        instruction="You are b.",
    )
    return LlmAgent(
        name="root",
        description="The root.",
        model=scripted(transfer("a"), "back at root", model="model-root"),
        instruction="You route.",
        sub_agents=[a, b],
    )
