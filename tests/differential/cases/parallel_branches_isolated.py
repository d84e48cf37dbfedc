"""ParallelAgent of two tool-using agents, two turns: each branch sees only its own events."""

from google.adk.agents import LlmAgent, ParallelAgent
from google.adk.tools.tool_context import ToolContext
from google.genai import types

BRANCHES_INTERLEAVE = True  # branches run concurrently: compared branch by branch
TURNS = ["research both", "once more"]


def note(topic: str, tool_context: ToolContext) -> dict:
    """Notes a topic.

    Args:
      topic: The topic.
    """
    tool_context.state[f"note_{topic}"] = True
    return {"noted": topic}


def build(scripted):
    call = types.Part.from_function_call

    def researcher(name):
        return LlmAgent(
            name=name,
            model=scripted(
                call(name="note", args={"topic": name}),
                f"{name} done",
                f"{name} again",
                model=f"model-{name}",
            ),
            instruction=f"You research {name}.",
            tools=[note],
            output_key=f"{name}_out",
        )

    return ParallelAgent(name="team", sub_agents=[researcher("left"), researcher("right")])
