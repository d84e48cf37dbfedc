"""A resumable app: a transfer's target asks to confirm a tool that transfers; the
approval runs it, the target ends (its end-of-agent marker) and the tool's target runs."""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types


def pay(amount: int, tool_context: ToolContext) -> dict:
    """Pays an amount, then hands over to the receipts desk.

    Args:
      amount: The amount.
    """
    tool_context.actions.transfer_to_agent = "receipts"
    return {"paid": amount}


def approved(events):
    event, call = next(
        (e, c)
        for e in events
        for c in e.get_function_calls()
        if c.name == "adk_request_confirmation"
    )
    response = types.FunctionResponse(id=call.id, name=call.name, response={"confirmed": True})
    message = types.Content(role="user", parts=[types.Part(function_response=response)])
    return {"invocation_id": event.invocation_id, "new_message": message}


TURNS = ["pay 70", approved]


def build(scripted):
    call = types.Part.from_function_call
    receipts = LlmAgent(
        name="receipts",
        description="Sends receipts.",
        model=scripted("Receipt sent.", model="receipts-model"),
    )
    clerk = LlmAgent(
        name="clerk",
        description="Pays bills.",
        model=scripted(call(name="pay", args={"amount": 70}), "Clerk again.", model="clerk-model"),
        tools=[FunctionTool(pay, require_confirmation=True)],
        sub_agents=[receipts],
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "clerk"}), model="desk-model"
        ),
        sub_agents=[clerk],
    )


RESUMABLE = True
