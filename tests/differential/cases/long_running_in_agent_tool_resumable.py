"""A long-running call with no result yet, made by an AgentTool's agent in a resumable
app: the AgentTool's own run cannot be resumed, so the caller gets 2.13's error result.
"""

from google.adk.agents import LlmAgent
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> None:
    """Opens an approval ticket; the manager answers later."""
    return None


TURNS = ["reimburse 200", "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        description="Handles reimbursements.",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "I asked the manager.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    return LlmAgent(
        name="front",
        model=scripted(
            call(name="desk", args={"request": "reimburse 200"}),
            "The desk could not finish.",
            "You are welcome.",
            model="front-model",
        ),
        tools=[AgentTool(desk)],
    )


RESUMABLE = True
TURN_TIMEOUT = 40.0
