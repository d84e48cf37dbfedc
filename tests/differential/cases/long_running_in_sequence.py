"""A long-running call made by a SequentialAgent's step, answered in the next message.

`desk` (the first step) opens a ticket with a long-running tool that returns a
'pending' status the model answers; the manager's FunctionResponse comes in the
next message; then a text message. `notify` is the second step.
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> dict:
    """Opens an approval ticket; the manager answers later."""
    return {"status": "pending", "ticket": "t-1"}


def approved(events):
    call = next(c for e in events for c in e.get_function_calls() if c.name == "open_ticket")
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "approved"})
    return types.Content(role="user", parts=[types.Part(function_response=response)])


TURNS = ["reimburse 200", approved, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "I asked the manager (ticket t-1).",
            "Approved and paid.",
            "Glad to help.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    notify = LlmAgent(
        name="notify",
        model=scripted("Notified.", "Notified again.", "Notified thrice.", model="notify-model"),
    )
    return SequentialAgent(name="pipeline", sub_agents=[desk, notify])


TURN_TIMEOUT = 40.0
