"""Agent Config YAML: an LlmAgent with tools and callbacks named by code references.

Turn 1: two tool calls (one answered by before_tool, one result tagged by
after_tool), then a reply after_model redacts. Turn 2: before_model answers
from state without calling the model; after_agent adds a closing event.
"""

from google.genai import types

TURNS = ["look up apple and secret", "and again?"]
INITIAL_STATE = {"user_name": "Ada"}

_call = types.Part.from_function_call
MODELS = {
    "kit-assistant": [
        [
            _call(name="lookup", args={"key": "apple"}),
            _call(name="reverse_lookup", args={"key": "secret"}),
        ],
        "apple is applepie; the secret is hunter2",
    ],
}
