"""A long-running call made by an AgentTool's agent, answered in the next message.

`front` calls its AgentTool `desk`, whose long-running tool returns a 'pending'
ticket; the manager's FunctionResponse (by the call's id, if the caller saw it)
comes next.
"""

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> dict:
    """Opens an approval ticket; the manager answers later."""
    return {"status": "pending", "ticket": "t-1"}


def approved(events):
    call = next(
        (c for e in events for c in e.get_function_calls() if c.name == "open_ticket"), None
    )
    if call is None:
        return types.Content(role="user", parts=[types.Part(text="approved")])
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "approved"})
    return types.Content(role="user", parts=[types.Part(function_response=response)])


TURNS = ["reimburse 200", approved, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        description="Handles reimbursements.",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "I asked the manager (ticket t-1).",
            "Approved and paid.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    return LlmAgent(
        name="front",
        model=scripted(
            call(name="desk", args={"request": "reimburse 200"}),
            "The desk is on it.",
            "Noted the approval.",
            "You are welcome.",
            model="front-model",
        ),
        tools=[AgentTool(desk)],
    )


TURN_TIMEOUT = 40.0
