"""UnsafeLocalCodeExecutor under PlanReActPlanner: the planner rewrites the answer
first (its planning text becomes a thought), then the code block of the action runs;
the planner's thoughts stay with the code event, and go back unmarked next time."""

from google.adk.agents import LlmAgent
from google.adk.code_executors import UnsafeLocalCodeExecutor
from google.adk.planners import PlanReActPlanner

REFERENCE_ARTIFACT_SERVICE = True
TURNS = ["how many letters in 'durable'?"]


def build(scripted):
    return LlmAgent(
        name="counter",
        instruction="Count with code.",
        planner=PlanReActPlanner(),
        code_executor=UnsafeLocalCodeExecutor(),
        model=scripted(
            "/*PLANNING*/\nCount them with len.\n/*ACTION*/\n```python\nprint(len('durable'))\n```",
            "/*REASONING*/\nThe code printed 7.\n/*FINAL_ANSWER*/\n7 letters.",
        ),
    )
