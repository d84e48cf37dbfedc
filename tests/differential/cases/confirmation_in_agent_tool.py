"""A confirmation asked by an AgentTool's agent, approved in the next message.

`front` calls its AgentTool `payer`, whose tool needs confirmation.
"""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool, ToolContext
from google.adk.tools.agent_tool import AgentTool
from google.genai import types


def send_money(amount: int, tool_context: ToolContext) -> dict:
    """Sends money."""
    tool_context.state["sent"] = amount
    return {"status": "sent", "amount": amount}


def approve(events):
    request = next(
        (
            c
            for e in reversed(events)
            for c in e.get_function_calls()
            if c.name == "adk_request_confirmation"
        ),
        None,
    )
    if request is None:
        return types.Content(role="user", parts=[types.Part(text="approve")])
    part = types.Part(
        function_response=types.FunctionResponse(
            id=request.id, name="adk_request_confirmation", response={"confirmed": True}
        )
    )
    return types.Content(role="user", parts=[part])


TURNS = ["pay 10", approve, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    payer = LlmAgent(
        name="payer",
        description="Pays people.",
        model=scripted(
            call(name="send_money", args={"amount": 10}),
            "Sent 10.",
            "Paid again.",
            model="payer-model",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
    return LlmAgent(
        name="front",
        model=scripted(
            call(name="payer", args={"request": "pay 10"}),
            "Done: the payer answered.",
            "After the answer.",
            "You are welcome.",
            model="front-model",
        ),
        tools=[AgentTool(payer)],
    )


TURN_TIMEOUT = 40.0
