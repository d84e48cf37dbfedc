"""A resumable app: the root (an LlmAgent) transfers to a SequentialAgent whose first
step asks for two confirmations in one step; each approval runs that step alone, at
the top (2.13's answer run of the agent that made the call): the first runs its tool
and stops again (the other is open), the second runs its tool and the step's model;
the Sequential's next step never runs; a text message then runs the root again."""

from google.adk.agents import LlmAgent, SequentialAgent
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
        event, request = next(
            (e, c)
            for e in events
            for c in e.get_function_calls()
            if c.name == "adk_request_confirmation"
            and c.args["originalFunctionCall"]["args"]["amount"] == amount
        )
        response = types.FunctionResponse(
            id=request.id, name=request.name, response={"confirmed": True}
        )
        content = types.Content(role="user", parts=[types.Part(function_response=response)])
        return {"invocation_id": event.invocation_id, "new_message": content}

    return message


TURNS = ["pay 70 and 30", approve(70), approve(30), "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    clerk = LlmAgent(
        name="clerk",
        model=scripted(
            [call(name="pay", args={"amount": 70}), call(name="pay", args={"amount": 30})],
            "Paid 70 and 30.",
            model="clerk-model",
        ),
        tools=[FunctionTool(pay, require_confirmation=True)],
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
