"""A transfer's target asks for a confirmation; the user sends a text message instead of
answering: 2.13's invocation had ended, so the message starts the next one (at the
target, the last agent that spoke), the call staying open; then the user approves it."""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool
from google.genai import types


def pay(amount: int) -> dict:
    """Pays an amount.

    Args:
      amount: The amount.
    """
    return {"paid": amount}


def approve(events):
    call = next(
        c for e in events for c in e.get_function_calls() if c.name == "adk_request_confirmation"
    )
    response = types.FunctionResponse(id=call.id, name=call.name, response={"confirmed": True})
    return types.Content(role="user", parts=[types.Part(function_response=response)])


TURNS = ["pay 70 please", "actually, what is my balance?", approve]


def build(scripted):
    call = types.Part.from_function_call
    clerk = LlmAgent(
        name="clerk",
        description="Pays bills.",
        model=scripted(
            call(name="pay", args={"amount": 70}),
            "Waiting for your approval.",
            "Your balance is 100.",
            "Paid 70.",
            model="clerk-model",
        ),
        tools=[FunctionTool(pay, require_confirmation=True)],
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "clerk"}), model="desk-model"
        ),
        sub_agents=[clerk],
    )
