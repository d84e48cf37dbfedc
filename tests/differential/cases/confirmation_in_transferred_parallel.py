"""confirmation_in_transferred_parallel_resumable without resumability: the approval
(a message) runs the agent that asked alone."""

from google.adk.agents import LlmAgent, ParallelAgent
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
    return message


TURNS = ["pay 10 then report", approve, "thanks"]


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
    pipeline = ParallelAgent(
        name="pipeline", description="Pays, then reports.", sub_agents=[step_a, step_b]
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


BRANCHES_INTERLEAVE = True
TURN_TIMEOUT = 60.0
