"""A SequentialAgent's step transfers to its sub-agent, whose long-running call ends
the invocation (the Sequential stops); the FunctionResponse in the next message runs
that sub-agent; a text message then runs the Sequential again.
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> None:
    """Opens an approval ticket; the manager answers later."""
    return None


def approved(events):
    event, call = next(
        (e, c)
        for e in events
        for c in e.get_function_calls()
        if c.id in (e.long_running_tool_ids or [])
    )
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "ok"})
    message = types.Content(role="user", parts=[types.Part(function_response=response)])
    return message


TURNS = ["reimburse 200", approved, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        description="Handles reimbursements.",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "Approved and paid.",
            "Desk again.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    front = LlmAgent(
        name="front",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "desk"}),
            "Front again.",
            model="front-model",
        ),
        sub_agents=[desk],
    )
    notify = LlmAgent(
        name="notify", model=scripted("Notified.", "Notified again.", model="notify-model")
    )
    return SequentialAgent(name="pipeline", sub_agents=[front, notify])


TURN_TIMEOUT = 60.0
