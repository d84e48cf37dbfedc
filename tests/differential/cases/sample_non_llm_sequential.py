"""google/adk-python contributing/samples/non_llm_sequential: two agents in a SequentialAgent."""

from google.adk.agents import Agent, SequentialAgent

TURNS = ["go", "again"]


def build(scripted):
    sub_agent_1 = Agent(
        name="sub_agent_1",
        description="No.1 sub agent.",
        model=scripted("1", "1", model="gemini-2.0-flash-001"),
        instruction="JUST SAY 1.",
    )

    sub_agent_2 = Agent(
        name="sub_agent_2",
        description="No.2 sub agent.",
        model=scripted("2", "2", model="gemini-2.0-flash-001"),
        instruction="JUST SAY 2.",
    )
    sequential_agent = SequentialAgent(
        name="sequential_agent",
        sub_agents=[sub_agent_1, sub_agent_2],
    )
    return sequential_agent
