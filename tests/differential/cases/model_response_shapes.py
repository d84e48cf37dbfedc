"""What a model (or a test's mock model) really returns: metadata, mixed parts, errors.

Usage metadata, finish_reason, model_version and custom_metadata on replies;
text and a function call in one reply; a thought part; an error response
with no content (error_code/error_message); an empty reply; a model swapped
onto an agent built with a model name (agent.model = ...), as tests do.
"""

from google.adk.agents import LlmAgent
from google.genai import types

TURNS = ["check it", "think", "fail softly", "say nothing"]
CONTINUE_AFTER_RAISE = True


def check(item: str) -> dict:
    """Checks an item."""
    return {"ok": item}


def build(scripted):
    usage = types.GenerateContentResponseUsageMetadata(
        prompt_token_count=10, candidates_token_count=5, total_token_count=15
    )
    agent = LlmAgent(name="shapes", model="gemini-2.5-flash", tools=[check])
    agent.model = scripted(
        {
            "content": [
                types.Part(text="Let me check."),
                types.Part.from_function_call(name="check", args={"item": "a"}),
            ],
            "usage_metadata": usage,
            "model_version": "gemini-2.5-flash-001",
            "finish_reason": types.FinishReason.STOP,
        },
        {"content": "Checked.", "custom_metadata": {"trace": "t1"}, "usage_metadata": usage},
        [types.Part(text="pondering", thought=True), types.Part(text="Thought done.")],
        {"error_code": "SAFETY", "error_message": "Blocked for safety.", "finish_reason": "SAFETY"},
        {"content": types.Content(role="model", parts=[])},
        model="gemini-2.5-flash",
    )
    return agent
