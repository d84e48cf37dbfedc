"""A confirmation answered after another message: the answer continues its invocation.

The user sends something else first (ours: the waiting invocation gives way), then
answers the old request with ADK's FunctionResponse message: 2.13 goes on under the
call's invocation id, runs the confirmed tool, then the model.
"""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types


def send_money(amount: int, to: str, tool_context: ToolContext) -> dict:
    """Sends money to someone."""
    tool_context.state["sent"] = amount
    return {"status": "sent", "amount": amount}


def approve(events):
    request = next(
        c for e in events for c in e.get_function_calls() if c.name == "adk_request_confirmation"
    )
    response = types.FunctionResponse(
        id=request.id, name=request.name, response={"confirmed": True}
    )
    return types.Content(role="user", parts=[types.Part(function_response=response)])


TURNS = ["send 10 to Ann", "what is my balance?", approve]


def build(scripted):
    return LlmAgent(
        name="bank",
        model=scripted(
            types.Part.from_function_call(name="send_money", args={"amount": 10, "to": "Ann"}),
            "Your balance is 5.",
            "Sent 10 to Ann.",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
