"""A resumable app: the root transfers to a SequentialAgent whose first step makes a
long-running call that pauses the invocation; `run_async(invocation_id=...)` with the
result runs that step only (the agent that made the call), which answers and ends, and
the invocation ends there (the Sequential's next step does not run); a text message
then runs the root again."""

from google.adk.agents import LlmAgent, SequentialAgent
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


TURNS = ["reimburse 200 then report", approved, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    step_a = LlmAgent(
        name="step_a",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "Approved.",
            model="a-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    step_b = LlmAgent(name="step_b", model=scripted("Reported.", model="b-model"))
    pipeline = SequentialAgent(
        name="pipeline", description="Files, then reports.", sub_agents=[step_a, step_b]
    )
    return LlmAgent(
        name="desk",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "pipeline"}),
            "Desk again.",
            model="desk-model",
        ),
        sub_agents=[pipeline],
    )


RESUMABLE = True
TURN_TIMEOUT = 60.0
