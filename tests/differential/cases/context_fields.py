"""What tools and callbacks read from their context, as real agents use it.

ToolContext: agent_name, function_call_id, invocation_id, user_content,
session (id, app_name, user_id, state, events), state.to_dict(); CallbackContext:
agent_name, invocation_id, user_content, session; ReadonlyContext in an
InstructionProvider.
"""

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.tools.tool_context import ToolContext
from google.genai import types

INITIAL_STATE = {"user:tier": "gold"}
TURNS = ["who am I?", "again"]


def whoami(tool_context: ToolContext) -> dict:
    """Tells the caller what it knows."""
    session = tool_context.session
    return {
        "agent": tool_context.agent_name,
        "call": tool_context.function_call_id,
        "invocation": tool_context.invocation_id,
        "said": tool_context.user_content.parts[0].text,
        "session": [session.app_name, session.user_id],  # (its id differs by side: the kit's)
        "events_so_far": [e.author for e in session.events],
        "state": tool_context.state.to_dict(),
        "has_tier": "user:tier" in tool_context.state,
    }


def before_agent(callback_context: CallbackContext):
    callback_context.state["seen"] = [
        callback_context.agent_name,
        callback_context.invocation_id,
        callback_context.user_content.parts[0].text,
        len(callback_context.session.events),
    ]


def instruction(context: ReadonlyContext) -> str:
    return (
        f"Agent {context.agent_name}, invocation {context.invocation_id},"
        f" user said {context.user_content.parts[0].text!r}, tier {context.state['user:tier']}."
    )


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="mirror",
        model=scripted(
            call(name="whoami", args={}),
            "You are u1.",
            call(name="whoami", args={}),
            "Still u1.",
            model="gemini-2.5-flash",
        ),
        instruction=instruction,
        tools=[whoami],
        before_agent_callback=before_agent,
    )
