"""A resumable app: run_async(invocation_id=...) with no message, in each state.

google-adk 2.13 (an LlmAgent root): while the invocation is paused at a
long-running call nobody answered, nothing happens (no event, no model call);
once the answer has continued it to its end, each such call runs the agent again
under that invocation id (the model is called with the session's contents, and
the agent's end-of-agent marker follows); so does it for an invocation that
ended without pausing.
"""

from google.adk import Agent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> None:
    """Opens an approval ticket."""
    return None


def _pending(events):
    return next(
        (e.invocation_id, c)
        for e in events
        for c in e.get_function_calls()
        if c.name == "open_ticket"
    )


def resume_none(events):
    inv, _ = _pending(events)
    return {"invocation_id": inv, "new_message": None}


def resume_last(events):
    return {"invocation_id": events[-1].invocation_id, "new_message": None}


def approved(events):
    inv, call = _pending(events)
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "approved"})
    return {
        "invocation_id": inv,
        "new_message": types.Content(role="user", parts=[types.Part(function_response=response)]),
    }


TURNS = ["reimburse 200", resume_none, approved, resume_none, resume_none, "thanks", resume_last]


def build(scripted):
    call = types.Part.from_function_call
    return Agent(
        name="desk",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "Approved and paid.",
            "m3",
            "m4",
            "m5",
            "m6",
            "m7",
            "m8",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )


RESUMABLE = True
