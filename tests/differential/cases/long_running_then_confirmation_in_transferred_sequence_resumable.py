"""A resumable app: the root (an LlmAgent) transfers to a SequentialAgent whose first
step makes a long-running call; its result runs that step alone, at the top, and the
step then asks for a confirmation (the invocation pauses again); the approval runs the
step alone again: its tool runs, it answers and the invocation ends (the Sequential's
next step does not run)."""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.tools import FunctionTool, ToolContext
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> None:
    """Opens an approval ticket; the manager answers later."""
    return None


def send_money(amount: int, tool_context: ToolContext) -> dict:
    """Sends money."""
    tool_context.state["sent"] = amount
    return {"status": "sent", "amount": amount}


def ticket_done(events):
    event, call = next(
        (e, c)
        for e in events
        for c in e.get_function_calls()
        if c.id in (e.long_running_tool_ids or []) and c.name == "open_ticket"
    )
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "ok"})
    message = types.Content(role="user", parts=[types.Part(function_response=response)])
    return {"invocation_id": event.invocation_id, "new_message": message}


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


TURNS = ["reimburse 200", ticket_done, approve, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    step_a = LlmAgent(
        name="step_a",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            call(name="send_money", args={"amount": 200}),
            "Sent 200.",
            model="a-model",
        ),
        tools=[
            LongRunningFunctionTool(func=open_ticket),
            FunctionTool(send_money, require_confirmation=True),
        ],
    )
    step_b = LlmAgent(name="step_b", model=scripted("Reported.", model="b-model"))
    pipeline = SequentialAgent(
        name="pipeline", description="Files, pays, then reports.", sub_agents=[step_a, step_b]
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
