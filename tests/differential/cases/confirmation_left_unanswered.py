"""A confirmation its user never answers: the next text message starts a new invocation.

The waiting invocation gives way (ours: its workflow ends); the request stays open
and the model sees the pending response in the next turn's contents, as in 2.13.
"""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types


def send_money(amount: int, to: str, tool_context: ToolContext) -> dict:
    """Sends money to someone."""
    tool_context.state["sent"] = amount
    return {"status": "sent"}


TURNS = ["send 10 to Ann", "never mind, send nothing", "and the weather?"]


def build(scripted):
    return LlmAgent(
        name="bank",
        model=scripted(
            types.Part.from_function_call(name="send_money", args={"amount": 10, "to": "Ann"}),
            "Ok, nothing sent.",
            "Sunny.",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
