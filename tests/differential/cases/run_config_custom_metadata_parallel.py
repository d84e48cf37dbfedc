"""`ctx.custom_metadata` written in a ParallelAgent's branches: google-adk 2.13's
branches write one dict, so what runs after them sees every branch's key (and what
ran before them wrote), and the first step's write reaches each branch.
"""

from google.adk.agents import LlmAgent, ParallelAgent, SequentialAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.run_config import RunConfig

TURNS = ["go"]
RUN_CONFIG = RunConfig(custom_metadata={"tenant": "acme", "dropped": 1})
BRANCHES_INTERLEAVE = True


def first(callback_context: CallbackContext):
    callback_context.custom_metadata["first"] = True
    del callback_context.custom_metadata["dropped"]


def branch_write(callback_context: CallbackContext):
    metadata = callback_context.custom_metadata
    callback_context.state[f"{callback_context.agent_name}_saw_first"] = metadata["first"]
    metadata[callback_context.agent_name] = True


def snapshot(callback_context: CallbackContext):
    callback_context.state["seen_at_end"] = dict(callback_context.custom_metadata)


def build(scripted):
    def branch(name: str) -> LlmAgent:
        return LlmAgent(
            name=name,
            model=scripted(f"{name} done", model=f"m-{name}"),
            before_agent_callback=branch_write,
        )

    return SequentialAgent(
        name="root",
        sub_agents=[
            LlmAgent(
                name="opener",
                model=scripted("opened", model="m-opener"),
                after_agent_callback=first,
            ),
            ParallelAgent(name="fan", sub_agents=[branch("left"), branch("right")]),
        ],
        after_agent_callback=snapshot,
    )
