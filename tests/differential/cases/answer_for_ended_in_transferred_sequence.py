"""answer_for_ended_while_newer_waits, the asking agent a step of a SequentialAgent
the root (an LlmAgent) transfers to: each answer runs the step alone, at the top."""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.tools import FunctionTool
from google.genai import types


def send_money(amount: int, to: str) -> dict:
    """Sends money to someone."""
    return {"status": "sent", "amount": amount, "to": to}


def answer(to, confirmed):
    def message(events):
        event, call = next(
            (e, c)
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


def build(scripted):
    call = types.Part.from_function_call
    bank = LlmAgent(
        name="bank",
        model=scripted(
            call(name="send_money", args={"amount": 10, "to": "Ann"}),
            call(name="send_money", args={"amount": 20, "to": "Bob"}),
            "Sent 10 to Ann.",
            "Bob's transfer was rejected.",
            "You are welcome.",
            model="bank-model",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
    notify = LlmAgent(name="notify", model=scripted("Notified.", "Notified.", model="notify-model"))
    pipeline = SequentialAgent(
        name="pipeline", description="Sends money.", sub_agents=[bank, notify]
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "pipeline"}),
            call(name="transfer_to_agent", args={"agent_name": "pipeline"}),
            "You are welcome.",
            model="desk-model",
        ),
        sub_agents=[pipeline],
    )


TURN_TIMEOUT = 60.0
