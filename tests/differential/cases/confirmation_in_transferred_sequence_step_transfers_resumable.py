"""A resumable app: the root (an LlmAgent) transfers to a SequentialAgent whose first
step transfers to its own sub-agent, which asks for a confirmation; the approval runs
that sub-agent alone, at the top (2.13's answer run of the agent that made the call):
neither the step that transferred nor the Sequential resumes; a text message then
runs the root again."""

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


TURNS = ["pay 10 then report", approve, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    payer = LlmAgent(
        name="payer",
        description="Sends money.",
        model=scripted(
            call(name="send_money", args={"amount": 10}),
            "Sent 10.",
            model="payer-model",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
    front = LlmAgent(
        name="front",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "payer"}),
            model="front-model",
        ),
        sub_agents=[payer],
    )
    report = LlmAgent(name="report", model=scripted("Reported.", model="report-model"))
    pipeline = SequentialAgent(
        name="pipeline", description="Pays, then reports.", sub_agents=[front, report]
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
