"""A resumable app: transfers under a Sequential agent, and the end-of-agent order.

Under a shell agent google-adk 2.13 runs a transfer's target inside the
transferring agent's run (its legacy flow), so each transferring agent's
`end_of_agent` marker follows its target's run, the innermost first, and its
after_agent_callback follows its marker. (At the top, where an LlmAgent root runs
as a workflow node, the transferring agent's marker comes before its target's
run: case `resumable_transfer_answered`.)
"""

from google.adk.agents import LlmAgent, SequentialAgent
from google.genai import types

TURNS = ["hi", "again"]


def after(callback_context):
    return types.Content(
        role="model", parts=[types.Part(text=f"after {callback_context.agent_name}")]
    )


def build(scripted):
    call = types.Part.from_function_call
    c = LlmAgent(name="c", description="Closes.", model=scripted("C here.", model="c-model"))
    b = LlmAgent(
        name="b",
        description="Routes.",
        model=scripted(call(name="transfer_to_agent", args={"agent_name": "c"}), model="b-model"),
        sub_agents=[c],
    )
    a = LlmAgent(
        name="a",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "b"}), "A again.", model="a-model"
        ),
        sub_agents=[b],
        after_agent_callback=after,
    )
    d = LlmAgent(name="d", model=scripted("D here.", "D again.", model="d-model"))
    return SequentialAgent(name="seq", sub_agents=[a, d])


RESUMABLE = True
TURN_TIMEOUT = 40.0  # six child workflows one after another: slow on a loaded machine
