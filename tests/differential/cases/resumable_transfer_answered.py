"""A resumable app whose root transfers to an agent that pauses at a long-running call.

google-adk 2.13 (an LlmAgent root runs as a workflow node): the root's end-of-agent
marker comes right after its transfer, before the target's run; the answer continues
the target; a resume with no message then runs the target again (it replied last).
"""

from google.adk.agents import LlmAgent
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def open_ticket(amount: int) -> None:
    """Opens an approval ticket."""
    return None


def _pending(events):
    return next(
        (e.invocation_id, c)
        for e in events
        for c in e.get_function_calls()
        if c.name == "open_ticket"
    )


def resume_none(events):
    inv, _ = _pending(events)
    return {"invocation_id": inv, "new_message": None}


def approved(events):
    inv, call = _pending(events)
    response = types.FunctionResponse(id=call.id, name=call.name, response={"status": "approved"})
    return {
        "invocation_id": inv,
        "new_message": types.Content(role="user", parts=[types.Part(function_response=response)]),
    }


TURNS = ["reimburse 200", resume_none, approved, resume_none, "thanks"]


def build(scripted):
    call = types.Part.from_function_call
    desk = LlmAgent(
        name="desk",
        description="Handles reimbursements.",
        model=scripted(
            call(name="open_ticket", args={"amount": 200}),
            "Approved and paid.",
            "welcome",
            "x1",
            "x2",
            model="desk-model",
        ),
        tools=[LongRunningFunctionTool(func=open_ticket)],
    )
    return LlmAgent(
        name="front",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "desk"}),
            "f1",
            "f2",
            model="front-model",
        ),
        sub_agents=[desk],
    )


RESUMABLE = True
