"""A confirmation asked inside a LoopAgent's step, approved in the next message.

The loop runs `payer` then `checker` at most twice; `payer` calls a
`require_confirmation` tool in its first round.
"""

from google.adk.agents import LlmAgent, LoopAgent
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


TURNS = ["pay", approve, "again"]


def build(scripted):
    call = types.Part.from_function_call
    payer = LlmAgent(
        name="payer",
        model=scripted(
            call(name="send_money", args={"amount": 10}),
            "Sent 10.",
            "Round two.",
            "Round three.",
            "Round four.",
            model="payer-model",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
    checker = LlmAgent(
        name="checker",
        model=scripted(
            "Checked 1.", "Checked 2.", "Checked 3.", "Checked 4.", model="checker-model"
        ),
    )
    return LoopAgent(name="rounds", sub_agents=[payer, checker], max_iterations=2)


TURN_TIMEOUT = 60.0
