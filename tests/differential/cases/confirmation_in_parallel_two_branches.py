"""Both ParallelAgent branches ask for a confirmation; each approval, in a message of
its own, runs the branch that asked (the other request stays open until its own).
"""

from google.adk.agents import LlmAgent, ParallelAgent
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types


def send_money(amount: int, tool_context: ToolContext) -> dict:
    """Sends money."""
    tool_context.state[f"sent_{amount}"] = amount
    return {"status": "sent", "amount": amount}


def approve(amount):
    def message(events):
        request = next(
            c
            for e in events
            for c in e.get_function_calls()
            if c.name == "adk_request_confirmation"
            and c.args["originalFunctionCall"]["args"]["amount"] == amount
        )
        part = types.Part(
            function_response=types.FunctionResponse(
                id=request.id, name="adk_request_confirmation", response={"confirmed": True}
            )
        )
        return types.Content(role="user", parts=[part])

    return message


TURNS = ["pay both", approve(20), approve(10)]


def build(scripted):
    call = types.Part.from_function_call

    def payer(name, amount):
        return LlmAgent(
            name=name,
            model=scripted(
                call(name="send_money", args={"amount": amount}),
                f"Sent {amount}.",
                model=f"{name}-model",
            ),
            tools=[FunctionTool(send_money, require_confirmation=True)],
        )

    return ParallelAgent(name="both", sub_agents=[payer("ann", 10), payer("bob", 20)])


BRANCHES_INTERLEAVE = True
TURN_TIMEOUT = 40.0
