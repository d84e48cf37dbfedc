"""after_agent_callback of agents that transfer at the top (the root, then its target
handing over to a peer): google-adk 2.13 runs none of theirs (a transfer ends the
run); the last target's runs."""

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.genai import types

TURNS = ["route me"]


def after(callback_context: CallbackContext):
    seen = callback_context.state.get("after", [])
    callback_context.state["after"] = [*seen, callback_context.agent_name]
    return None


def build(scripted):
    finisher = LlmAgent(
        name="finisher",
        after_agent_callback=after,
        model=scripted([types.Part(text="finished")]),
    )
    helper = LlmAgent(
        name="helper",
        after_agent_callback=after,
        disallow_transfer_to_parent=True,
        model=scripted(
            [
                types.Part.from_function_call(
                    name="transfer_to_agent", args={"agent_name": "finisher"}
                )
            ]
        ),
    )
    return LlmAgent(
        name="router",
        after_agent_callback=after,
        sub_agents=[helper, finisher],
        model=scripted(
            [
                types.Part.from_function_call(
                    name="transfer_to_agent", args={"agent_name": "helper"}
                )
            ],
        ),
    )
