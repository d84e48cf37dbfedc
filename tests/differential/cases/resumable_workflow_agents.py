"""A resumable app of workflow agents: 2.13's agent-state events and end-of-agent markers
(a Sequential names the sub-agent it starts, a Loop its round too, a Parallel an empty state).
"""

from google.adk.agents import LlmAgent, LoopAgent, ParallelAgent, SequentialAgent

TURNS = ["go"]


def build(scripted):
    a = LlmAgent(name="a", model=scripted("A1.", "A2.", model="a-model"))
    loop = LoopAgent(name="loop", sub_agents=[a], max_iterations=2)
    p1 = LlmAgent(name="p1", model=scripted("P1.", model="p1-model"))
    par = ParallelAgent(name="par", sub_agents=[p1])
    return SequentialAgent(name="seq", sub_agents=[loop, par])


RESUMABLE = True
TURN_TIMEOUT = 40.0  # five child workflows one after another: slow on a loaded machine
