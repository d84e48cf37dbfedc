"""ReflectAndRetryToolPlugin: two failures come back as reflection guidance the model
sees; the third raises (wrapped in the plugin's RuntimeError); a new invocation counts
from zero and a success passes through."""

from google.adk.agents import LlmAgent
from google.adk.plugins import ReflectAndRetryToolPlugin
from google.genai import types

TURNS = ["try it", "try again"]
CONTINUE_AFTER_RAISE = True


def flaky(attempt: int) -> dict:
    """Works only for attempt 0.

    Args:
      attempt: Which attempt this is.
    """
    if attempt:
        raise ConnectionError(f"upstream refused attempt {attempt}")
    return {"ok": True}


def plugins():
    return [ReflectAndRetryToolPlugin(max_retries=2)]


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="flaky", args={"attempt": 1}),
            call(name="flaky", args={"attempt": 2}),
            call(name="flaky", args={"attempt": 3}),
            call(name="flaky", args={"attempt": 0}),
            "it worked",
        ),
        tools=[flaky],
    )
