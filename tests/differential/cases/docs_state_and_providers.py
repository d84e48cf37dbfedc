"""ADK docs, callbacks (before_agent skip) + context/state pages (InstructionProvider).

A before_agent_callback that skips the agent when state says so (session
created with state), an InstructionProvider function reading ReadonlyContext,
global_instruction, {user:name} / {app:motd} / {missing?} templating in a
sub-agent's instruction, a tool writing user:, app: and temp: state, and an
AgentTool summarizer whose result the root reads.
"""

from typing import Optional

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

INITIAL_STATE = {"user:name": "Ada", "app:motd": "be kind", "skip_llm_agent": False}
TURNS = ["summarize: the cat sat on the mat and slept all day", "log in please", "still there?"]


def check_if_agent_should_run(callback_context: CallbackContext) -> Optional[types.Content]:
    """Logs entry and checks 'skip_llm_agent' in session state."""
    current_state = callback_context.state.to_dict()
    if current_state.get("skip_llm_agent", False):
        return types.Content(
            parts=[
                types.Part(
                    text=f"Agent {callback_context.agent_name} skipped by before_agent_callback"
                    " due to state."
                )
            ],
            role="model",
        )
    return None


def my_instruction_provider(context: ReadonlyContext) -> str:
    # the {braces} are not templated for a provider
    return f"You help {context.state.get('user:name', 'someone')}. Literal {{braces}} stay."


def login(tool_context: ToolContext) -> dict:
    """Logs the user in."""
    count = tool_context.state.get("user:login_count", 0) + 1
    tool_context.state["user:login_count"] = count
    tool_context.state["app:logins"] = tool_context.state.get("app:logins", 0) + 1
    tool_context.state["temp:validation_needed"] = True
    tool_context.state["task_status"] = "active"
    # the skip flag goes on for the next turn
    tool_context.state["skip_llm_agent"] = True
    return {"login_count": count, "invocation": bool(tool_context.invocation_id)}


def build(scripted):
    call = types.Part.from_function_call
    summary_agent = LlmAgent(
        model=scripted("A cat napped on a mat.", model="gemini-2.0-flash"),
        name="summary_agent",
        instruction="Summarize for {user:name} ({app:motd}); extra: {missing?}.",
        description="Agent to summarize text",
    )
    return LlmAgent(
        name="root_agent",
        model=scripted(
            call(
                name="summary_agent", args={"request": "the cat sat on the mat and slept all day"}
            ),
            "Summary: A cat napped on a mat.",
            call(name="login", args={}),
            "You are logged in.",
            model="gemini-2.0-flash",
        ),
        instruction=my_instruction_provider,
        global_instruction="You are a helpful assistant for {user:name}.",
        tools=[AgentTool(agent=summary_agent), login],
        before_agent_callback=check_if_agent_should_run,
        output_key="last_answer",
    )
