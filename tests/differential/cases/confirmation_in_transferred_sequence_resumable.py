"""A resumable app: the root (an LlmAgent) transfers to a SequentialAgent whose first
step asks for a confirmation; approved by `run_async(invocation_id=...)`, 2.13 runs
the agent that made the call alone, at the top (its events under the step's own node
path): the step's tool runs, the step answers and ends, and so does the invocation
(the Sequential is not resumed: its next step does not run)."""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types


def send_money(amount: int, tool_context: ToolContext) -> dict:
    """Sends money."""
    tool_context.state["sent"] = amount
    return {"status": "sent", "amount": amount}


def approve(events):
    event, request = next(
        (e, c)
        for e in reversed(events)
        for c in e.get_function_calls()
        if c.name == "adk_request_confirmation"
    )
    part = types.Part(
        function_response=types.FunctionResponse(
            id=request.id, name="adk_request_confirmation", response={"confirmed": True}
        )
    )
    message = types.Content(role="user", parts=[part])
    return {"invocation_id": event.invocation_id, "new_message": message}


TURNS = ["pay 10 then report", approve]


def build(scripted):
    call = types.Part.from_function_call
    step_a = LlmAgent(
        name="step_a",
        model=scripted(
            call(name="send_money", args={"amount": 10}),
            "Sent 10.",
            model="a-model",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
    step_b = LlmAgent(name="step_b", model=scripted("Reported.", model="b-model"))
    pipeline = SequentialAgent(
        name="pipeline", description="Pays, then reports.", sub_agents=[step_a, step_b]
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "pipeline"}),
            model="desk-model",
        ),
        sub_agents=[pipeline],
    )


RESUMABLE = True
TURN_TIMEOUT = 60.0
