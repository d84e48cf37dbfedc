"""google-adk's get_user_choice tool: a long-running call whose response skips
summarization, so the turn ends without another model call; the user's choice comes
back as a FunctionResponse for the call, and the model answers it."""

from google.adk.agents import LlmAgent
from google.adk.tools import get_user_choice
from google.genai import types


def choose(events):
    call = next(c for e in events for c in e.get_function_calls() if c.name == "get_user_choice")
    response = types.FunctionResponse(id=call.id, name=call.name, response={"result": "tea"})
    return types.Content(role="user", parts=[types.Part(function_response=response)])


TURNS = ["what can I drink?", choose]


def build(scripted):
    return LlmAgent(
        name="barista",
        instruction="Offer drinks with get_user_choice.",
        model=scripted(
            types.Part.from_function_call(
                name="get_user_choice", args={"options": ["tea", "coffee"]}
            ),
            "Tea it is.",
            model="gemini-2.5-flash",
        ),
        tools=[get_user_choice],
    )
