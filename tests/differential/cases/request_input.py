"""google-adk's request_input tool (adk_request_input, long-running): its declaration
as 2.13 sends it, the question as the call, the user's answer as the call's response
in the next turn, then the model's reply."""

from google.adk.agents import LlmAgent
from google.adk.tools import request_input
from google.genai import types


def answer(events):
    call = next(c for e in events for c in e.get_function_calls() if c.name == "adk_request_input")
    response = types.FunctionResponse(id=call.id, name=call.name, response={"result": "Lyon"})
    return types.Content(role="user", parts=[types.Part(function_response=response)])


TURNS = ["book me a train", answer]


def build(scripted):
    return LlmAgent(
        name="booker",
        instruction="Ask for what you miss.",
        model=scripted(
            types.Part.from_function_call(
                name="adk_request_input",
                args={"message": "From which city?", "response_schema": {"type": "string"}},
            ),
            "Booked from Lyon.",
            model="gemini-2.5-flash",
        ),
        tools=[request_input],
    )
