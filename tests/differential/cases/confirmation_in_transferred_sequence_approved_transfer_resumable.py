"""A resumable app: the root (an LlmAgent) transfers to a SequentialAgent whose first
step asks to confirm a tool that transfers (tool_context.actions.transfer_to_agent) to
the step's sub-agent; the approval runs that step alone, at the top (2.13's answer run
of the agent that made the call): the approved tool runs, and its transfer is
followed as at the top; a text message then runs the root again."""

from google.adk.agents import LlmAgent, SequentialAgent
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


TURNS = ["pay 70", approved, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    receipts = LlmAgent(
        name="receipts",
        description="Sends receipts.",
        model=scripted("Receipt sent.", "Receipts again.", model="receipts-model"),
    )
    clerk = LlmAgent(
        name="clerk",
        description="Pays bills.",
        model=scripted(call(name="pay", args={"amount": 70}), "Clerk again.", model="clerk-model"),
        tools=[FunctionTool(pay, require_confirmation=True)],
        sub_agents=[receipts],
    )
    notify = LlmAgent(name="notify", model=scripted("Notified.", model="notify-model"))
    pipeline = SequentialAgent(
        name="pipeline", description="Pays, then notifies.", sub_agents=[clerk, notify]
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "pipeline"}),
            "Desk again.",
            model="desk-model",
        ),
        sub_agents=[pipeline],
    )


RESUMABLE = True
TURN_TIMEOUT = 60.0
