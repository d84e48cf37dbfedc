"""Tool confirmations answered by ADK's resume message: one approved, one rejected.

`require_confirmation=True` on one tool, `tool_context.request_confirmation`
(with a hint and a payload) in another. A `require_confirmation` turn ends
with the `adk_request_confirmation` call and the pending response; a tool that
asked itself returns a result the model answers first. The user's
FunctionResponse to the request, in a new message, runs (or refuses) the tool
and the conversation goes on.
"""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types


def send_money(amount: int, to: str, tool_context: ToolContext) -> dict:
    """Sends money to someone."""
    tool_context.state["sent"] = tool_context.state.get("sent", 0) + amount
    return {"status": "sent", "amount": amount, "to": to}


def book_room(room: str, tool_context: ToolContext) -> dict:
    """Books a room; a manager confirms it and picks the floor."""
    confirmation = tool_context.tool_confirmation
    if confirmation is None:
        tool_context.request_confirmation(hint=f"Book {room}?", payload={"floor": 1})
        return {"status": "asked"}
    if not confirmation.confirmed:
        return {"status": "declined"}
    return {"status": "booked", "room": room, "floor": confirmation.payload["floor"]}


def answer(confirmed, payload=None):
    """The user's answer to the last confirmation request: ADK's resume message."""

    def message(events):
        request = next(
            c
            for e in reversed(events)
            for c in e.get_function_calls()
            if c.name == "adk_request_confirmation"
        )
        response = {"confirmed": confirmed}
        if payload is not None:
            response["payload"] = payload
        part = types.Part(
            function_response=types.FunctionResponse(
                id=request.id, name="adk_request_confirmation", response=response
            )
        )
        return types.Content(role="user", parts=[part])

    return message


TURNS = [
    "send 10 to Ann",
    answer(True),
    "send 20 to Bob",
    answer(False),
    "book the blue room",
    answer(True, {"floor": 3}),
    "book the red room",
    answer(False),
]


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="bank",
        model=scripted(
            call(name="send_money", args={"amount": 10, "to": "Ann"}),
            "Sent 10 to Ann.",
            call(name="send_money", args={"amount": 20, "to": "Bob"}),
            "The transfer to Bob was rejected.",
            call(name="book_room", args={"room": "blue"}),
            "I asked a manager about the blue room.",
            "Booked the blue room on floor 3.",
            call(name="book_room", args={"room": "red"}),
            "I asked a manager about the red room.",
            "The red room was declined.",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True), book_room],
    )
