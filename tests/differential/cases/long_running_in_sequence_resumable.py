"""long_running_in_sequence in a resumable app: the step's call pauses the invocation
(its tool returns nothing yet); `run_async(invocation_id=...)` with the manager's
FunctionResponse resumes it where it paused, then a text message starts another.
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> None:
    """Opens an approval ticket; the manager answers later."""
    return None


def _pending_call(events):
    return next(
        (event.invocation_id, part.function_call)
        for event in events
        for part in (event.content.parts if event.content else None) or []
        if part.function_call and part.function_call.id in (event.long_running_tool_ids or [])
    )


def approved(events):
    invocation_id, call = _pending_call(events)
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "approved"})
    message = types.Content(role="user", parts=[types.Part(function_response=response)])
    return {"invocation_id": invocation_id, "new_message": message}


TURNS = ["reimburse 200", approved, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "Approved and paid.",
            "Glad to help.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    notify = LlmAgent(
        name="notify",
        model=scripted("Notified.", "Notified again.", model="notify-model"),
    )
    return SequentialAgent(name="pipeline", sub_agents=[desk, notify])


RESUMABLE = True
TURN_TIMEOUT = 40.0
