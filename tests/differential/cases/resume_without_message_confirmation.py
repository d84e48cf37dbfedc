"""resume_without_message, paused at a tool confirmation: nothing while it waits for
the answer; after the approval the agent runs again (google-adk 2.13)."""

from google.adk import Agent
from google.adk.tools import FunctionTool
from google.genai import types


def send_money(amount: int) -> dict:
    """Sends money."""
    return {"status": "sent"}


def _pending(events):
    return next(
        (e.invocation_id, c)
        for e in events
        for c in e.get_function_calls()
        if c.name == "adk_request_confirmation"
    )


def resume_none(events):
    inv, _ = _pending(events)
    return {"invocation_id": inv, "new_message": None}


def approved(events):
    inv, call = _pending(events)
    response = types.FunctionResponse(id=call.id, name=call.name, response={"confirmed": True})
    return {
        "invocation_id": inv,
        "new_message": types.Content(role="user", parts=[types.Part(function_response=response)]),
    }


TURNS = ["send 10", resume_none, approved, resume_none]


def build(scripted):
    call = types.Part.from_function_call
    return Agent(
        name="bank",
        model=scripted(
            call(name="send_money", args={"amount": 10}), "Sent.", "m3", "m4", "m5", "m6"
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )


RESUMABLE = True
