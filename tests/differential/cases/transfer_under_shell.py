"""A transfer by an agent under a SequentialAgent that an LlmAgent root transferred to.

The root runs as a workflow node, the Sequential's sub-agents the legacy way: the
sub-agent's transfer is checked by the legacy rules (its parent is not an LlmAgent,
so it may name only its own sub-agents) and naming the root raises ValueError
"Agent s1 is not allowed to transfer to agent desk.".
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.genai import types

TURNS = ["go"]


def build(scripted):
    def transfer(name):
        return types.Part.from_function_call(name="transfer_to_agent", args={"agent_name": name})

    kid = LlmAgent(name="kid", model=scripted("Kid here.", model="kid-model"))
    s1 = LlmAgent(name="s1", model=scripted(transfer("desk"), model="s1-model"), sub_agents=[kid])
    pipe = SequentialAgent(name="pipe", sub_agents=[s1])
    return LlmAgent(
        name="desk", model=scripted(transfer("pipe"), model="desk-model"), sub_agents=[pipe]
    )
