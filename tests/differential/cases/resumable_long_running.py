"""A resumable app: a long-running call pauses the invocation; resumed by its id.

google/adk-python's human_in_loop sample in an `App(resumability_config=
ResumabilityConfig(is_resumable=True))`, its tool returning nothing yet: the
invocation pauses at the call. `run_async(invocation_id=...)`
without a message while it is paused, then with the manager's FunctionResponse,
resumes it where it paused; the next text starts a new invocation.
"""

from google.adk import Agent
from google.adk.tools import ToolContext
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def reimburse(purpose: str, amount: float) -> str:
    """Reimburse the amount of money to the employee."""
    return {"status": "ok"}


def ask_for_approval(purpose: str, amount: float, tool_context: ToolContext) -> None:
    """Ask for approval for the reimbursement."""
    tool_context.state["ticket"] = "reimbursement-ticket-001"
    return None


def _pending_call(events):
    return next(
        (event.invocation_id, part.function_call)
        for event in events
        for part in (event.content.parts if event.content else None) or []
        if part.function_call and part.function_call.id in (event.long_running_tool_ids or [])
    )


def resume_without_message(events):
    invocation_id, _ = _pending_call(events)
    return {"invocation_id": invocation_id, "new_message": None}


def approved(events):
    invocation_id, call = _pending_call(events)
    response = types.FunctionResponse(
        id=call.id,
        name=call.name,
        response={"status": "approved", "ticketId": "reimbursement-ticket-001"},
    )
    message = types.Content(role="user", parts=[types.Part(function_response=response)])
    return {"invocation_id": invocation_id, "new_message": message}


TURNS = [
    "Please reimburse $200 for conference travel",
    resume_without_message,
    approved,
    "Thanks!",
]


def build(scripted):
    call = types.Part.from_function_call
    return Agent(
        model=scripted(
            call(name="ask_for_approval", args={"purpose": "conference travel", "amount": 200}),
            call(name="reimburse", args={"purpose": "conference travel", "amount": 200}),
            "Approved and reimbursed.",
            "You are welcome.",
        ),
        name="reimbursement_agent",
        instruction="Handle reimbursements; above $100 ask for approval first.",
        tools=[reimburse, LongRunningFunctionTool(func=ask_for_approval)],
    )


RESUMABLE = True
