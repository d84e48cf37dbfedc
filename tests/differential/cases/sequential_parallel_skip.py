"""SequentialAgent[ParallelAgent[x, y], LlmAgent]; y's before_agent_callback returns Content."""

import asyncio

from google.adk.agents import LlmAgent, ParallelAgent, SequentialAgent
from google.adk.agents.callback_context import CallbackContext
from google.genai import types

BRANCHES_INTERLEAVE = True  # branches run concurrently: compared branch by branch
TURNS = ["go"]


async def skip_y(callback_context: CallbackContext):
    # The branches' events reach the session in the order they finish: timing. ADK's
    # scripted x never waits, so it finishes first; here y's skip waits long enough
    # that x finishes first on ours too, and the summary's request is comparable.
    await asyncio.sleep(1.5)
    callback_context.state["y_skipped"] = True
    return types.Content(role="model", parts=[types.Part(text="y was skipped")])


def build(scripted):
    x = LlmAgent(name="x", model=scripted("x result", model="model-x"), output_key="x_out")
    y = LlmAgent(
        name="y",
        model=scripted("never asked", model="model-y"),
        output_key="y_out",
        before_agent_callback=skip_y,
    )
    summary = LlmAgent(
        name="summary",
        model=scripted("summary done", model="model-summary"),
        instruction="Summarise {x_out} (y skipped: {y_skipped}).",
    )
    return SequentialAgent(
        name="pipeline",
        sub_agents=[ParallelAgent(name="fanout", sub_agents=[x, y]), summary],
    )
