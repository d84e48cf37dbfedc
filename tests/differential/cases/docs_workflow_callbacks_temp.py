"""Workflow agents with callbacks, temp: state passed along, non-text state in templates.

A SequentialAgent whose own before/after_agent callbacks write state; inside
it, a writer with output_key='temp:draft' read by the next agent's
{temp:draft} (2.13 keeps temp: state for the invocation), a LoopAgent of two
iterations (no exit) holding a ParallelAgent, whose after_agent_callback
returns Content; an instruction templating a list and a dict from state.
"""

from google.adk.agents import LlmAgent, LoopAgent, ParallelAgent, SequentialAgent
from google.adk.agents.callback_context import CallbackContext
from google.genai import types

INITIAL_STATE = {"rolls": [3, 5], "profile": {"name": "Ada", "level": 2}}
TURNS = ["start the pipeline"]
BRANCHES_INTERLEAVE = True


def pipeline_started(callback_context: CallbackContext):
    callback_context.state["pipeline"] = "started"


def pipeline_done(callback_context: CallbackContext):
    callback_context.state["pipeline"] = "done"
    callback_context.state["temp:seen_at_end"] = callback_context.state.get("temp:draft")


def loop_round(callback_context: CallbackContext):
    callback_context.state["rounds"] = callback_context.state.get("rounds", 0) + 1


def parallel_done(callback_context: CallbackContext):
    return types.Content(
        role="model", parts=[types.Part(text=f"round {callback_context.state.get('rounds')}")]
    )


def build(scripted):
    writer = LlmAgent(
        name="writer",
        model=scripted("draft one", model="writer-model"),
        instruction="Write about rolls {rolls} for {profile}.",
        output_key="temp:draft",
    )
    reviewer = LlmAgent(
        name="reviewer",
        model=scripted("looks fine", model="reviewer-model"),
        instruction="Review this draft: {temp:draft}",
        output_key="review",
    )
    left = LlmAgent(name="left", model=scripted("L1", "L2", model="left-model"), output_key="left")
    right = LlmAgent(
        name="right", model=scripted("R1", "R2", model="right-model"), include_contents="none"
    )
    fan_out = ParallelAgent(
        name="fan_out", sub_agents=[left, right], after_agent_callback=parallel_done
    )
    loop = LoopAgent(
        name="twice", sub_agents=[fan_out], max_iterations=2, before_agent_callback=loop_round
    )
    return SequentialAgent(
        name="pipeline",
        sub_agents=[writer, reviewer, loop],
        before_agent_callback=pipeline_started,
        after_agent_callback=pipeline_done,
    )
