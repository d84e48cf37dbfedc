"""answer_for_ended_while_newer_waits in a resumable app (each invocation pauses at its
confirmation; the answers resume them in the other order than they were asked)."""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool
from google.genai import types


def send_money(amount: int, to: str) -> dict:
    """Sends money to someone."""
    return {"status": "sent", "amount": amount, "to": to}


def answer(to, confirmed):
    def message(events):
        call = next(
            c
            for e in events
            for c in e.get_function_calls()
            if c.name == "adk_request_confirmation"
            and c.args["originalFunctionCall"]["args"]["to"] == to
        )
        part = types.Part(
            function_response=types.FunctionResponse(
                id=call.id, name="adk_request_confirmation", response={"confirmed": confirmed}
            )
        )
        return types.Content(role="user", parts=[part])

    return message


TURNS = ["send 10 to Ann", "send 20 to Bob", answer("Ann", True), answer("Bob", False), "thanks"]


RESUMABLE = True


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="bank",
        model=scripted(
            call(name="send_money", args={"amount": 10, "to": "Ann"}),
            call(name="send_money", args={"amount": 20, "to": "Bob"}),
            "Sent 10 to Ann.",
            "Bob's transfer was rejected.",
            "You are welcome.",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
