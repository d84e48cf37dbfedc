"""confirmation_transferred_two_answered_apart in a resumable app: the first approval
(resuming the invocation) runs its tool and the target pauses again, the other
confirmation being open; the second resumes the target, whose model answers."""

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
    return LlmAgent(
        name="desk",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "clerk"}), model="desk-model"
        ),
        sub_agents=[clerk],
    )


RESUMABLE = True
