"""run_config_custom_metadata_tree in a resumable app, the root's own tool asking for
a confirmation before the transfer: the agent-state and end-of-agent events, the
confirmation request and the user's answer carry the run's metadata too. What the
root's model callback writes into `ctx.custom_metadata` (a count of its calls) starts
again after the answer: google-adk 2.13 runs the answer in a context of its own.
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.run_config import RunConfig
from google.adk.tools import FunctionTool
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types


def approve(events):
    request = next(
        c
        for e in reversed(events)
        for c in e.get_function_calls()
        if c.name == "adk_request_confirmation"
    )
    part = types.Part(
        function_response=types.FunctionResponse(
            id=request.id, name="adk_request_confirmation", response={"confirmed": True}
        )
    )
    return types.Content(role="user", parts=[part])


TURNS = ["route my request", approve]
RESUMABLE = True
RUN_CONFIG = RunConfig(custom_metadata={"tenant": "acme", "request": {"id": 7, "tags": ["a"]}})


def tenant_of(tool_context: ToolContext) -> dict:
    """Tells the tenant of this request."""
    return {"tenant": tool_context.custom_metadata["tenant"], "agent": tool_context.agent_name}


def check_it(tool_context: ToolContext) -> dict:
    """Checks the request."""
    return {"checked_for": tool_context.custom_metadata["tenant"]}


def file_it(tool_context: ToolContext) -> dict:
    """Files the request."""
    tool_context.state["filed_for"] = tool_context.custom_metadata["request"]
    return {"filed": True}


def helper_saw(callback_context: CallbackContext, llm_request):
    callback_context.state["helper_saw"] = dict(callback_context.custom_metadata)


def count_calls(callback_context: CallbackContext, llm_request):
    metadata = callback_context.custom_metadata
    metadata["calls"] = metadata.get("calls", 0) + 1
    callback_context.state["desk_calls"] = [
        *callback_context.state.get("desk_calls", []),
        metadata["calls"],
    ]


def note(callback_context: CallbackContext):
    keys = ",".join(sorted(callback_context.custom_metadata))
    return types.Content(role="model", parts=[types.Part(text=f"note for {keys}")])


def build(scripted):
    call = types.Part.from_function_call
    helper = LlmAgent(
        name="helper",
        description="Finds the tenant.",
        model=scripted(call(name="tenant_of", args={}), "It is acme.", model="m-helper"),
        tools=[tenant_of],
        before_model_callback=helper_saw,
    )
    step_a = LlmAgent(
        name="step_a",
        model=scripted(
            {"content": "a done", "custom_metadata": {"tenant": "override", "step": "a"}},
            model="m-a",
        ),
        after_agent_callback=note,
    )
    step_b = LlmAgent(
        name="step_b",
        model=scripted(call(name="file_it", args={}), "b done", model="m-b"),
        tools=[file_it],
    )
    pipeline = SequentialAgent(
        name="pipeline", description="Handles requests.", sub_agents=[step_a, step_b]
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            call(name="helper", args={"request": "whose request?"}),
            call(name="check_it", args={}),
            call(name="transfer_to_agent", args={"agent_name": "pipeline"}),
            model="m-desk",
        ),
        tools=[AgentTool(agent=helper), FunctionTool(check_it, require_confirmation=True)],
        sub_agents=[pipeline],
        before_model_callback=count_calls,
    )
