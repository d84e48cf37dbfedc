"""Node paths of a transfer chain: root -> a -> c (a's child) -> a -> root -> a, then a turn."""

from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["go", "again"]


def build(scripted):
    def transfer(name):
        return types.Part.from_function_call(name="transfer_to_agent", args={"agent_name": name})

    c = LlmAgent(
        name="c",
        description="Agent c.",
        model=scripted(transfer("a"), model="model-c"),
    )
    a = LlmAgent(
        name="a",
        description="Agent a.",
        model=scripted(transfer("c"), transfer("root"), "a final", "a again", model="model-a"),
        sub_agents=[c],
    )
    return LlmAgent(
        name="root",
        model=scripted(transfer("a"), transfer("a"), model="model-root"),
        sub_agents=[a],
    )
