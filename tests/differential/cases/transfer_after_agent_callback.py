"""after_agent_callback of agents that transfer inside a SequentialAgent: google-adk
2.13 runs the target inside the transferring agent's run, so the transferring
agent's callback runs after the target's (innermost first). Each callback notes its
turn in state; the router's also returns content (an event of its own)."""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.agents.callback_context import CallbackContext
from google.genai import types

TURNS = ["route me"]


def after(callback_context: CallbackContext):
    seen = callback_context.state.get("after", [])
    callback_context.state["after"] = [*seen, callback_context.agent_name]
    if callback_context.agent_name == "router":
        return types.Content(role="model", parts=[types.Part(text="(router done)")])
    return None


def transfer(name):
    return [types.Part.from_function_call(name="transfer_to_agent", args={"agent_name": name})]


def build(scripted):
    expert = LlmAgent(
        name="expert",
        after_agent_callback=after,
        model=scripted([types.Part(text="expert answer")]),
    )
    helper = LlmAgent(
        name="helper",
        after_agent_callback=after,
        disallow_transfer_to_parent=True,
        model=scripted(transfer("expert")),
    )
    router = LlmAgent(
        name="router",
        after_agent_callback=after,
        sub_agents=[helper, expert],
        model=scripted(transfer("helper"), [types.Part(text="stayed")]),
    )
    closer = LlmAgent(
        name="closer",
        after_agent_callback=after,
        model=scripted([types.Part(text="closed")], [types.Part(text="closed again")]),
    )
    return SequentialAgent(name="pipeline", sub_agents=[router, closer])
