"""What a tool or callback writes into `ctx.custom_metadata`: google-adk 2.13 keeps one
dict for the invocation (started from RunConfig.custom_metadata), so the agent's later
callbacks and tools, its transfer target and a SequentialAgent's steps see it; an
AgentTool's agent starts from the RunConfig's (its own Runner), and so does the next
invocation. Events keep carrying the RunConfig's metadata only.
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.run_config import RunConfig
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["go", "again"]
RUN_CONFIG = RunConfig(custom_metadata={"tenant": "acme"})


def mark(tool_context: ToolContext) -> dict:
    """Marks the request."""
    before = dict(tool_context.custom_metadata)
    tool_context.custom_metadata["marked_by"] = tool_context.agent_name
    return {"before": before}


def peek(tool_context: ToolContext) -> dict:
    """Shows the request's metadata."""
    return {"seen": dict(tool_context.custom_metadata)}


def count_calls(callback_context: CallbackContext, llm_request):
    metadata = callback_context.custom_metadata
    metadata["model_calls"] = metadata.get("model_calls", 0) + 1
    seen = callback_context.state.get("calls_seen", [])
    callback_context.state["calls_seen"] = [
        *seen,
        [callback_context.agent_name, metadata["model_calls"]],
    ]


def snapshot(callback_context: CallbackContext):
    callback_context.state[f"seen_by_{callback_context.agent_name}"] = dict(
        callback_context.custom_metadata
    )


def build(scripted):
    call = types.Part.from_function_call
    helper = LlmAgent(
        name="helper",
        description="Peeks.",
        model=scripted(call(name="peek", args={}), "peeked", model="m-helper"),
        tools=[peek],
        before_model_callback=count_calls,
    )
    closer = LlmAgent(
        name="closer",
        model=scripted("closed", model="m-closer"),
        before_model_callback=count_calls,
        after_agent_callback=snapshot,
    )
    pipeline = SequentialAgent(
        name="pipeline",
        description="Handles it.",
        sub_agents=[closer],
    )
    return LlmAgent(
        name="root",
        model=scripted(
            call(name="mark", args={}),
            call(name="helper", args={"request": "peek"}),
            call(name="transfer_to_agent", args={"agent_name": "pipeline"}),
            "bye",
            model="m-root",
        ),
        tools=[mark, AgentTool(agent=helper)],
        sub_agents=[pipeline],
        before_model_callback=count_calls,
        before_agent_callback=snapshot,
    )
