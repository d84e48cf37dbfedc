"""google/adk-python contributing/samples/human_in_loop: reimbursement with an approval.

A LongRunningFunctionTool returning a 'pending' ticket, answered in a later
turn by a FunctionResponse carrying the call's id (as the sample's main.py
sends it), then a plain tool call.
"""

from typing import Any

from google.adk import Agent
from google.adk.tools import ToolContext
from google.adk.tools.long_running_tool import LongRunningFunctionTool
from google.genai import types


def reimburse(purpose: str, amount: float) -> str:
    """Reimburse the amount of money to the employee."""
    return {
        "status": "ok",
    }


def ask_for_approval(purpose: str, amount: float, tool_context: ToolContext) -> dict[str, Any]:
    """Ask for approval for the reimbursement."""
    return {
        "status": "pending",
        "amount": amount,
        "ticketId": "reimbursement-ticket-001",
    }


def approved(events):
    """main.py: the long-running call found by event.long_running_tool_ids, answered."""
    call = next(
        part.function_call
        for event in events
        for part in (event.content.parts if event.content else None) or []
        if part.function_call and part.function_call.id in (event.long_running_tool_ids or [])
    )
    updated_tool_output_data = {
        "status": "approved",
        "ticketId": "reimbursement-ticket-001",
        "approver_feedback": "Approved by manager",
    }
    updated_function_response_part = types.Part(
        function_response=types.FunctionResponse(
            id=call.id, name=call.name, response=updated_tool_output_data
        )
    )
    return types.Content(parts=[updated_function_response_part], role="user")


TURNS = ["Please reimburse $50 for meals", "Please reimburse $200 for conference travel", approved]


def build(scripted):
    call = types.Part.from_function_call
    return Agent(
        model=scripted(
            call(name="reimburse", args={"purpose": "meals", "amount": 50}),
            "Your $50 for meals is reimbursed.",
            call(name="ask_for_approval", args={"purpose": "conference travel", "amount": 200}),
            "I asked your manager to approve ticket reimbursement-ticket-001.",
            call(name="reimburse", args={"purpose": "conference travel", "amount": 200}),
            "Approved and reimbursed.",
            model="gemini-1.5-flash",
        ),
        name="reimbursement_agent",
        instruction="""
      You are an agent whose job is to handle the reimbursement process for
      the employees. If the amount is less than $100, you will automatically
      approve the reimbursement.

      If the amount is greater than $100, you will
      ask for approval from the manager. If the manager approves, you will
      call reimburse() to reimburse the amount to the employee. If the manager
      rejects, you will inform the employee of the rejection.
""",
        tools=[reimburse, LongRunningFunctionTool(func=ask_for_approval)],
        generate_content_config=types.GenerateContentConfig(temperature=0.1),
    )
