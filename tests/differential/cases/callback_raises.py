"""Callbacks that raise: the user's exception class reaches the caller, state written
before the raise, and the next turn of the same session still runs."""

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.genai import types

TURNS = ["first", "second", "third"]
CONTINUE_AFTER_RAISE = True


class GuardrailError(Exception):
    pass


_calls = []


def before_model(callback_context: CallbackContext, llm_request):
    # written before the raise: 2.13 does not keep it (the event is never made)
    callback_context.state["calls"] = len(_calls)
    _calls.append(1)
    if len(_calls) == 1:
        raise GuardrailError("blocked on the first call")
    return None


def after_tool(tool, args, tool_context, tool_response):
    raise ValueError(f"after_tool rejects {tool.name}")


def lookup(key: str) -> dict:
    """Looks up a key."""
    return {"value": key}


def build(scripted):
    return LlmAgent(
        name="guarded",
        model=scripted(
            types.Part.from_function_call(name="lookup", args={"key": "k"}),
            "third answer",
            model="gemini-2.5-flash",
        ),
        tools=[lookup],
        before_model_callback=before_model,
        after_tool_callback=after_tool,
    )
