"""LoggingPlugin: every line it prints, compared with 2.13's (ids normalised): the user
message, the run, the agent, each model request and
response (instruction, tools, usage, finish reason), each tool call (a success, an
error a later ReflectAndRetryToolPlugin answers, logged once, and a classifier's
verdict) and each event."""

from google.adk.agents import LlmAgent
from google.adk.plugins import LoggingPlugin, ReflectAndRetryToolPlugin, ToolResultClassification
from google.adk.plugins.logging_plugin import LoggingPlugin as SameLoggingPlugin
from google.genai import types

TURNS = ["Look up the weather in Paris", "thanks"]
CAPTURE_STDOUT = True


def weather(city: str) -> dict:
    """The weather in a city.

    Args:
      city: The city.
    """
    if city == "Atlantis":
        raise LookupError(f"no such city: {city}")
    return {"city": city, "sky": "sunny", "status": "ERROR" if city == "Nowhere" else "OK"}


def classify(*, tool, tool_args, tool_context, result):
    if isinstance(result, dict) and result.get("status") == "ERROR":
        return ToolResultClassification(status="ERROR", error_message="no weather there")
    return None


def plugins():
    assert LoggingPlugin is SameLoggingPlugin
    return [
        LoggingPlugin(tool_result_classifier=classify),
        ReflectAndRetryToolPlugin(max_retries=2),
    ]


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        instruction="Answer about the weather. " + "Be very polite and mention the sky. " * 8,
        model=scripted(
            [
                call(name="weather", args={"city": "Paris"}),
                call(name="weather", args={"city": "Atlantis"}),
            ],
            call(name="weather", args={"city": "Nowhere"}),
            {
                "content": "Sunny in Paris.",
                "usage_metadata": types.GenerateContentResponseUsageMetadata(
                    prompt_token_count=12, candidates_token_count=7
                ),
                "finish_reason": types.FinishReason.STOP,
            },
            "You are welcome.",
        ),
        tools=[weather],
    )
