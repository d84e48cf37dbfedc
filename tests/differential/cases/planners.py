"""Planners (as google's fields_planner sample): PlanReActPlanner's instruction, its
tagged answers turned into thoughts and a final answer, the calls after the first kept,
thoughts unmarked in the next request; BuiltInPlanner's thinking config on a sub-agent."""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.planners import BuiltInPlanner, PlanReActPlanner
from google.genai import types

TURNS = ["what is the answer?", "and again?"]


def lookup(topic: str) -> dict:
    """Looks a topic up.

    Args:
      topic: The topic.
    """
    return {"topic": topic, "value": 42}


def build(scripted):
    text = lambda t: types.Part(text=t)  # noqa: E731
    call = types.Part.from_function_call
    planner_agent = LlmAgent(
        name="planner_agent",
        instruction="Answer with the lookup tool.",
        planner=PlanReActPlanner(),
        tools=[lookup],
        model=scripted(
            [
                text("/*PLANNING*/\n1. Look the answer up.\n/*ACTION*/\n"),
                call(name="lookup", args={"topic": "answer"}),
                call(name="lookup", args={"topic": "question"}),
                text("this text after the calls is dropped"),
                call(name="lookup", args={"topic": "dropped too"}),
            ],
            [text("/*REASONING*/The lookups agree./*FINAL_ANSWER*/The answer is 42.")],
            [text("/*REPLANNING*/ nothing new"), text("Still 42.")],
        ),
    )
    thinker = LlmAgent(
        name="thinker",
        instruction="Think, then confirm.",
        planner=BuiltInPlanner(
            thinking_config=types.ThinkingConfig(include_thoughts=True, thinking_budget=256)
        ),
        model=scripted("Confirmed.", "Confirmed again."),
    )
    return SequentialAgent(name="pipeline", sub_agents=[planner_agent, thinker])
