"""Node paths under workflow agents: a root LlmAgent transferring to a
SequentialAgent (a tool call, a state-only callback event), a LoopAgent (two
iterations, exit_loop) and a ParallelAgent."""

from google.adk.agents import LlmAgent, LoopAgent, ParallelAgent, SequentialAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.tools import exit_loop
from google.genai import types

BRANCHES_INTERLEAVE = True  # the ParallelAgent's branches: compared branch by branch
TURNS = ["sequence", "loop", "parallel"]


def mark(callback_context: CallbackContext):
    callback_context.state["seq_started"] = True


def add(x: int) -> int:
    """Adds one."""
    return x + 1


def build(scripted):
    call = types.Part.from_function_call

    def transfer(name):
        return call(name="transfer_to_agent", args={"agent_name": name})

    s1 = LlmAgent(
        name="s1",
        model=scripted(call(name="add", args={"x": 1}), "s1 done", model="model-s1"),
        tools=[add],
    )
    s2 = LlmAgent(name="s2", model=scripted("s2 done", model="model-s2"))
    seq = SequentialAgent(
        name="seq", description="A sequence.", sub_agents=[s1, s2], before_agent_callback=mark
    )
    l1 = LlmAgent(name="l1", model=scripted("l1 first", "l1 second", model="model-l1"))
    l2 = LlmAgent(
        name="l2",
        model=scripted("l2 first", call(name="exit_loop", args={}), model="model-l2"),
        tools=[exit_loop],
    )
    loop = LoopAgent(name="loop", description="A loop.", sub_agents=[l1, l2], max_iterations=3)
    p1 = LlmAgent(name="p1", model=scripted("p1 done", model="model-p1"))
    p2 = LlmAgent(name="p2", model=scripted("p2 done", model="model-p2"))
    par = ParallelAgent(name="par", description="Branches.", sub_agents=[p1, p2])
    return LlmAgent(
        name="root",
        model=scripted(transfer("seq"), transfer("loop"), transfer("par"), model="model-root"),
        sub_agents=[seq, loop, par],
    )
