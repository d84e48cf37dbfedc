"""A transfer target's model raises: 2.13 records the failure (an error event with the
failed run's node path) as the failure of the agent that transferred to it, not the
target's own; the next turn starts at the target that never answered (2.13's router
skips a failure's content-less event and follows the unanswered transfer), unless it
sits under a Sequential agent.

Turn 1: desk -> pipe (Sequential) -> s1 -> kid -> kid2, which raises (kid records it).
Turn 2: desk runs again (kid2 is under the Sequential) -> b, which raises (desk records).
Turn 3: b runs (it never answered) and answers.
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.genai import types

TURNS = ["go", "again", "third"]
CONTINUE_AFTER_RAISE = True


def build(scripted):
    def transfer(name):
        return types.Part.from_function_call(name="transfer_to_agent", args={"agent_name": name})

    kid2 = LlmAgent(
        name="kid2", description="k2", model=scripted(RuntimeError("kid2 broke"), model="kit-kid2")
    )
    kid = LlmAgent(
        name="kid",
        description="k",
        sub_agents=[kid2],
        model=scripted(transfer("kid2"), model="kit-kid"),
    )
    s1 = LlmAgent(
        name="s1",
        description="s1",
        sub_agents=[kid],
        model=scripted(transfer("kid"), model="kit-s1"),
    )
    pipe = SequentialAgent(name="pipe", description="pipe", sub_agents=[s1])
    b = LlmAgent(
        name="b", description="b", model=scripted(RuntimeError("b broke"), "b ok", model="kit-b")
    )
    return LlmAgent(
        name="desk",
        sub_agents=[pipe, b],
        model=scripted(transfer("pipe"), transfer("b"), model="kit-desk"),
    )
