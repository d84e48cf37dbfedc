"""A confirmation two workflow agents down in a resumable app: a ParallelAgent branch
of a SequentialAgent asks; the other branch runs to its end, and everything above
pauses. Resumed by `run_async(invocation_id=...)` with the approval, the Parallel
runs only the paused branch, then the Sequential goes on to its LoopAgent step.
"""

from google.adk.agents import LlmAgent, LoopAgent, ParallelAgent, SequentialAgent
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types


def send_money(amount: int, tool_context: ToolContext) -> dict:
    """Sends money."""
    tool_context.state["sent"] = amount
    return {"status": "sent", "amount": amount}


def approve(events):
    event, request = next(
        (e, c)
        for e in reversed(events)
        for c in e.get_function_calls()
        if c.name == "adk_request_confirmation"
    )
    part = types.Part(
        function_response=types.FunctionResponse(
            id=request.id, name="adk_request_confirmation", response={"confirmed": True}
        )
    )
    message = types.Content(role="user", parts=[part])
    return {"invocation_id": event.invocation_id, "new_message": message}


TURNS = ["pay and write", approve]


def build(scripted):
    call = types.Part.from_function_call
    payer = LlmAgent(
        name="payer",
        model=scripted(
            call(name="send_money", args={"amount": 10}),
            "Sent 10.",
            model="payer-model",
        ),
        tools=[FunctionTool(send_money, require_confirmation=True)],
    )
    writer = LlmAgent(name="writer", model=scripted("Written.", model="writer-model"))
    checker = LlmAgent(  # (no history: the branches' order in it is timing)
        name="checker",
        model=scripted("Checked.", model="checker-model"),
        include_contents="none",
    )
    both = ParallelAgent(name="both", sub_agents=[payer, writer])
    rounds = LoopAgent(name="rounds", sub_agents=[checker], max_iterations=1)
    return SequentialAgent(name="pipeline", sub_agents=[both, rounds])


RESUMABLE = True
BRANCHES_INTERLEAVE = True
TURN_TIMEOUT = 60.0
