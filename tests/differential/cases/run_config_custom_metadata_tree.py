"""RunConfig.custom_metadata across an agent tree: an AgentTool's agent (its own run,
with the caller's RunConfig: its tool and callback read the metadata, the state it
writes reaches the caller), a transfer to a SequentialAgent whose steps answer, call a
tool and end with an after_agent callback's content: every event of the session
carries the run's metadata under its own keys.
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.run_config import RunConfig
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["route my request"]
RUN_CONFIG = RunConfig(custom_metadata={"tenant": "acme", "request": {"id": 7, "tags": ["a"]}})


def tenant_of(tool_context: ToolContext) -> dict:
    """Tells the tenant of this request."""
    return {"tenant": tool_context.custom_metadata["tenant"], "agent": tool_context.agent_name}


def file_it(tool_context: ToolContext) -> dict:
    """Files the request."""
    tool_context.state["filed_for"] = tool_context.custom_metadata["request"]
    return {"filed": True}


def helper_saw(callback_context: CallbackContext, llm_request):
    callback_context.state["helper_saw"] = dict(callback_context.custom_metadata)


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
            call(name="transfer_to_agent", args={"agent_name": "pipeline"}),
            model="m-desk",
        ),
        tools=[AgentTool(agent=helper)],
        sub_agents=[pipeline],
    )
