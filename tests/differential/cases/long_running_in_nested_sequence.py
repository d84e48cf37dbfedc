"""A long-running call two workflow agents down (a Sequential step of a Sequential):
both stop after the step; the FunctionResponse in the next message runs the agent
that made the call; a text message then runs the whole tree again.
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> None:
    """Opens an approval ticket; the manager answers later."""
    return None


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
            "Waiting for the manager.",
            "Approved and paid.",
            "Glad to help.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    notify = LlmAgent(name="notify", model=scripted("Notified.", model="notify-model"))
    closing = LlmAgent(name="closing", model=scripted("Closed.", model="closing-model"))
    inner = SequentialAgent(name="inner", sub_agents=[desk, notify])
    return SequentialAgent(name="outer", sub_agents=[inner, closing])


TURN_TIMEOUT = 60.0
