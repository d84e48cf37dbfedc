"""ReflectAndRetryModelPlugin: a malformed function call comes back as a synthesized
call of the reserved reflection tool, whose guidance the model sees and answers; a
model calling the reserved tool itself is treated the same; the third failure in a
row raises the plugin's RuntimeError; a good answer resets the count, and a new
invocation counts from zero."""

from google.adk.agents import LlmAgent
from google.adk.plugins import ReflectAndRetryModelPlugin
from google.genai import types

TURNS = ["first", "second", "third"]
CONTINUE_AFTER_RAISE = True

MALFORMED = {
    "error_code": "MALFORMED_FUNCTION_CALL",
    "error_message": "Malformed function call: lookup(key=",
    "finish_reason": types.FinishReason.MALFORMED_FUNCTION_CALL,
}


def lookup(key: str) -> dict:
    """Looks up a key."""
    return {"value": key}


def plugins():
    return [ReflectAndRetryModelPlugin(max_retries=2)]


def build(scripted):
    reserved = types.Part.from_function_call(
        name="adk_handle_model_error",
        args={"response_type": "x", "retry_count": 9},
    )
    return LlmAgent(
        name="root",
        model=scripted(
            # turn 1: one malformed call, then a good tool call and an answer
            MALFORMED,
            types.Part.from_function_call(name="lookup", args={"key": "a"}),
            "found a",
            # turn 2: the reserved tool called by the model, then an answer
            reserved,
            "fine now",
            # turn 3: three failures in a row (max 2): the third raises
            MALFORMED,
            MALFORMED,
            MALFORMED,
            model="gemini-2.5-flash",
        ),
        tools=[lookup],
    )
