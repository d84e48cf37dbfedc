"""A before_model_callback that adds a tool to the request (`append_tools`): 2.13
declares it to the model and runs the model's call of it from the request's tools,
like the agent's own tools. The callback's state write counts the requests
(durable-adk runs it again to find the tool; that run's writes are dropped); a call
of a name neither has gets 2.13's "not found" result listing the request's tools."""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool
from google.genai import types

TURNS = ["what time is it in Paris?"]


def clock(city: str) -> dict:
    """Tells the time in a city."""
    return {"city": city, "time": "10:42"}


def lookup(key: str) -> dict:
    """Looks up a key."""
    return {"value": key}


def add_clock(callback_context, llm_request):
    callback_context.state["requests"] = callback_context.state.get("requests", 0) + 1
    llm_request.append_tools([FunctionTool(clock)])
    return None


def build(scripted):
    return LlmAgent(
        name="helper",
        model=scripted(
            types.Part.from_function_call(name="clock", args={"city": "Paris"}),
            types.Part.from_function_call(name="calendar", args={"city": "Paris"}),
            "It is 10:42 in Paris.",
        ),
        tools=[lookup],
        before_model_callback=add_clock,
    )
