"""A transfer its agent's flags forbid: 2.13 raises WorkflowDataError (a ValueError).

The declaration lists the peer only (disallow_transfer_to_parent); a model
ignoring it still names the parent, and the invocation ends with
"Cannot transfer from 'sales' to parent agent 'desk': disallow_transfer_to_parent
is set." after the call and its response are recorded.
"""

from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["sales please"]


def build(scripted):
    def transfer(name):
        return types.Part.from_function_call(name="transfer_to_agent", args={"agent_name": name})

    sales = LlmAgent(
        name="sales",
        model=scripted(transfer("desk"), model="sales-model"),
        description="Sells things.",
        disallow_transfer_to_parent=True,
    )
    faq = LlmAgent(name="faq", model=scripted("FAQ.", model="faq-model"), description="FAQ.")
    return LlmAgent(
        name="desk", model=scripted(transfer("sales"), model="desk-model"), sub_agents=[sales, faq]
    )
