"""LoopAgent: a worker with include_contents='none', a checker that escalates via exit_loop."""

from google.adk.agents import LlmAgent, LoopAgent
from google.adk.tools import exit_loop
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["count to two"]


def bump(tool_context: ToolContext) -> dict:
    """Adds one to the counter."""
    tool_context.state["counter"] = tool_context.state.get("counter", 0) + 1
    return {"counter": tool_context.state["counter"]}


def build(scripted):
    call = types.Part.from_function_call
    worker = LlmAgent(
        name="worker",
        model=scripted(
            call(name="bump", args={}),
            "bumped",
            call(name="bump", args={}),
            "bumped again",
            model="model-worker",
        ),
        instruction="Counter is {counter?}. Bump it.",
        include_contents="none",
        tools=[bump],
    )
    checker = LlmAgent(
        name="checker",
        model=scripted("not yet", call(name="exit_loop", args={}), model="model-checker"),
        instruction="Stop when the counter is 2.",
        tools=[exit_loop],
    )
    return LoopAgent(name="loop", sub_agents=[worker, checker], max_iterations=5)
