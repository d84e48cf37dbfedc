"""Transfer rules real agent trees rely on: disallow flags, who answers the next turn.

A sub-agent with disallow_transfer_to_parent and disallow_transfer_to_peers
(its request declares no transfer_to_agent; the next turn goes back to the
root), a nested sub-agent reached through its parent, transfers up one level
at a time, and the agent that answered last keeping the conversation.
"""

from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["faq please", "and another faq", "talk to sales", "pricing detail", "back to the desk"]


def build(scripted):
    call = types.Part.from_function_call

    def transfer(name):
        return call(name="transfer_to_agent", args={"agent_name": name})

    faq = LlmAgent(
        name="faq",
        model=scripted("FAQ answer.", "Another FAQ answer.", model="faq-model"),
        description="Answers frequently asked questions.",
        disallow_transfer_to_parent=True,
        disallow_transfer_to_peers=True,
    )
    pricing = LlmAgent(
        name="pricing",
        model=scripted("Price is 10.", transfer("sales"), model="pricing-model"),
        description="Knows prices.",
    )
    sales = LlmAgent(
        name="sales",
        model=scripted(transfer("pricing"), "Sales here.", transfer("desk"), model="sales-model"),
        description="Sells things.",
        sub_agents=[pricing],
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            transfer("faq"),
            transfer("faq"),
            transfer("sales"),
            "Back at the desk.",
            model="desk-model",
        ),
        instruction="Route the user.",
        sub_agents=[faq, sales],
    )
