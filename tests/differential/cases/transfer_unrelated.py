"""A model naming a transfer target outside the agent's allowed list (its grandparent).

The declaration's enum lists only the parent and peers; a mock model (or a
model ignoring the enum) may still name another agent of the tree.
"""

from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["prices", "go to the desk"]


def build(scripted):
    call = types.Part.from_function_call

    def transfer(name):
        return call(name="transfer_to_agent", args={"agent_name": name})

    pricing = LlmAgent(
        name="pricing",
        model=scripted("Price is 10.", transfer("desk"), model="pricing-model"),
        description="Knows prices.",
    )
    sales = LlmAgent(
        name="sales",
        model=scripted(transfer("pricing"), model="sales-model"),
        description="Sells things.",
        sub_agents=[pricing],
    )
    return LlmAgent(
        name="desk",
        model=scripted(transfer("sales"), "Desk here.", model="desk-model"),
        sub_agents=[sales],
    )
