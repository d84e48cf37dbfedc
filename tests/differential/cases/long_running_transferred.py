"""A long-running call made by a transferred agent, answered in the next message.

The root transfers to `desk`, whose tool returns a 'pending' ticket the model
answers; the manager's FunctionResponse then goes to `desk` (the agent that made
the call), which answers it (ours: the transfer's child workflow waited for it).
"""

from google.adk.agents import LlmAgent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> dict:
    """Opens an approval ticket; the manager answers later."""
    return {"status": "pending", "ticket": "t-1"}


def approved(events):
    call = next(c for e in events for c in e.get_function_calls() if c.name == "open_ticket")
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "approved"})
    return types.Content(role="user", parts=[types.Part(function_response=response)])


TURNS = ["reimburse 200", approved]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        description="Handles reimbursements.",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "I asked the manager (ticket t-1).",
            "Approved and paid.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    return LlmAgent(
        name="front",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "desk"}), model="front-model"
        ),
        sub_agents=[desk],
    )
