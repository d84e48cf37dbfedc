"""resume_without_message in a resumable app whose long-running call returned an
intermediate result: the model answered it and the invocation ended (an intermediate
response counts as one: google-adk 2.13 does not pause), so a resume with no message
runs the agent again while the call is still open; the final result, later, goes on
under the call's invocation."""

from google.adk import Agent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> dict:
    """Opens an approval ticket."""
    return {"status": "pending", "ticket": "t-1"}


def _pending(events):
    return next(
        (e.invocation_id, c)
        for e in events
        for c in e.get_function_calls()
        if c.name == "open_ticket"
    )


def resume_none(events):
    invocation_id, _ = _pending(events)
    return {"invocation_id": invocation_id, "new_message": None}


def approved(events):
    invocation_id, call = _pending(events)
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "approved"})
    message = types.Content(role="user", parts=[types.Part(function_response=response)])
    return {"invocation_id": invocation_id, "new_message": message}


TURNS = ["reimburse 200", resume_none, approved]


def build(scripted):
    call = types.Part.from_function_call
    return Agent(
        name="desk",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "I asked the manager (ticket t-1).",
            "Still waiting for the manager.",
            "Approved and paid.",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )


RESUMABLE = True
