"""A resumable app's root agent asks for two confirmations in one step; the first
approval runs its tool and the run stops again (the other is open: 2.13 ends the
agent there all the same); the second runs its tool and the model."""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types


def pay(amount: int, tool_context: ToolContext) -> dict:
    """Pays an amount.

    Args:
      amount: The amount.
    """
    tool_context.state[f"paid_{amount}"] = amount
    return {"paid": amount}


def approve(amount):
    def message(events):
        request = next(
            c
            for e in events
            for c in e.get_function_calls()
            if c.name == "adk_request_confirmation"
            and c.args["originalFunctionCall"]["args"]["amount"] == amount
        )
        response = types.FunctionResponse(
            id=request.id, name=request.name, response={"confirmed": True}
        )
        content = types.Content(role="user", parts=[types.Part(function_response=response)])
        return {"invocation_id": events[0].invocation_id, "new_message": content}

    return message


TURNS = ["pay 70 and 30", approve(70), approve(30)]


def build(scripted):
    call = types.Part.from_function_call
    clerk = LlmAgent(
        name="clerk",
        description="Pays bills.",
        model=scripted(
            [call(name="pay", args={"amount": 70}), call(name="pay", args={"amount": 30})],
            "Paid 70; 30 still waits for your approval.",
            "Paid 30 too.",
            model="clerk-model",
        ),
        tools=[FunctionTool(pay, require_confirmation=True)],
    )
    return clerk


RESUMABLE = True
