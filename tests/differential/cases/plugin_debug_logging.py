"""DebugLoggingPlugin: the YAML documents it appends, one per invocation, compared with
2.13's (timestamps aside): user message (dropped: no state yet), run, agents, each
request (instruction, tools, config), response (usage, finish reason), tool call,
response and error (one a later ReflectAndRetryToolPlugin answers, recorded once),
each event with its state delta, and the final state with secrets and `temp:` keys
redacted; the file is created readable by its owner only."""

import os
import tempfile

import yaml
from google.adk.agents import LlmAgent
from google.adk.plugins import DebugLoggingPlugin, ReflectAndRetryToolPlugin
from google.adk.plugins.debug_logging_plugin import DebugLoggingPlugin as Same
from google.genai import types

TURNS = ["Book a table", "thanks"]
INITIAL_STATE = {"user:api_key": "sk-123", "user:name": "Ada"}


def book(restaurant: str, tool_context) -> dict:
    """Books a table.

    Args:
      restaurant: Where.
    """
    if restaurant == "Closed":
        raise RuntimeError("closed today")
    tool_context.state["temp:draft"] = "table for two"
    tool_context.state["booked"] = restaurant
    tool_context.state["session_token"] = "t0k3n"
    return {"booked": restaurant, "password": "hunter2"}


class ObservedDebugLog(DebugLoggingPlugin):
    """What the file holds after the run (timestamps replaced)."""

    @property
    def observed(self):
        path = self._output_path
        documents = list(yaml.safe_load_all(path.read_text()))
        for document in documents:
            document["start_time"] = "<time>"
            for entry in document["entries"]:
                entry["timestamp"] = "<time>"
        return {"mode": oct(os.stat(path).st_mode & 0o777), "documents": documents}


def plugins():
    assert DebugLoggingPlugin is Same
    path = os.path.join(tempfile.mkdtemp(), "debug.yaml")
    return [ObservedDebugLog(output_path=path), ReflectAndRetryToolPlugin(max_retries=2)]


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        instruction="Book tables for {user:name}.",
        generate_content_config=types.GenerateContentConfig(temperature=0.2, top_k=3),
        model=scripted(
            call(name="book", args={"restaurant": "Closed"}),
            call(name="book", args={"restaurant": "Chez Ada"}),
            {
                "content": "Booked at Chez Ada.",
                "usage_metadata": types.GenerateContentResponseUsageMetadata(
                    prompt_token_count=40, candidates_token_count=5, total_token_count=45
                ),
                "finish_reason": types.FinishReason.STOP,
                "model_version": "scripted-1",
            },
            "You are welcome.",
        ),
        tools=[book],
    )
