"""A confirmation asked by one ParallelAgent branch, approved after another message.

`payer` calls a `require_confirmation` tool; `writer` just answers. A text message
comes first (a new invocation; the call stays open), then the approval: ADK's
FunctionResponse, which goes on under the call's invocation, on its branch.
"""

from google.adk.agents import LlmAgent, ParallelAgent
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types


def send_money(amount: int, tool_context: ToolContext) -> dict:
    """Sends money."""
    tool_context.state["sent"] = amount
    return {"status": "sent", "amount": amount}


def approve(events):
    request = next(
        c
        for e in reversed(events)
        for c in e.get_function_calls()
        if c.name == "adk_request_confirmation"
    )
    part = types.Part(
        function_response=types.FunctionResponse(
            id=request.id, name="adk_request_confirmation", response={"confirmed": True}
        )
    )
    return types.Content(role="user", parts=[part])


TURNS = ["pay and write", "never mind", approve]


def build(scripted):
    call = types.Part.from_function_call
    payer = LlmAgent(
        name="payer",
        model=scripted(
            call(name="send_money", args={"amount": 10}),
            "Payer here.",
            "Sent 10.",
            model="payer-model",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
    writer = LlmAgent(
        name="writer", model=scripted("Written.", "Written again.", model="writer-model")
    )
    return ParallelAgent(name="both", sub_agents=[payer, writer])


BRANCHES_INTERLEAVE = True
TURN_TIMEOUT = 40.0
