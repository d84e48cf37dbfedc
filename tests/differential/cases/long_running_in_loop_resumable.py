"""A long-running call inside a LoopAgent's step of a resumable app: it pauses the
loop (its tool returns nothing yet); resumed by `run_async(invocation_id=...)` with
the FunctionResponse, the loop goes on from that step and round.
"""

from google.adk.agents import LlmAgent, LoopAgent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> None:
    """Opens an approval ticket; the manager answers later."""
    return None


def approved(events):
    event, call = next(
        (e, c)
        for e in events
        for c in e.get_function_calls()
        if c.id in (e.long_running_tool_ids or [])
    )
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "ok"})
    message = types.Content(role="user", parts=[types.Part(function_response=response)])
    return {"invocation_id": event.invocation_id, "new_message": message}


TURNS = ["go", approved]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        model=scripted(
            call(name="open_ticket", args={"amount": 1}),
            "Ticket approved.",
            "Round two.",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    checker = LlmAgent(
        name="checker", model=scripted("Checked 1.", "Checked 2.", model="checker-model")
    )
    return LoopAgent(name="rounds", sub_agents=[desk, checker], max_iterations=2)


RESUMABLE = True
TURN_TIMEOUT = 60.0
