"""Expenses: reimbursement is a long-running tool a manager answers later.

`request_reimbursement` files the request and returns at once (the
intermediate response); the invocation then waits, durably and for as long as
it takes, for the manager's decision for that call id:
`python -m client respond <workflow-id> <call-id> --result '{"status": "approved"}'`.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncGenerator
from datetime import timedelta

from google.genai import types

from adk import Agent
from adk.models import BaseLlm, LlmRequest, LlmResponse
from adk.tools import LongRunningFunctionTool, ToolContext


def request_reimbursement(amount_eur: float, purpose: str, tool_context: ToolContext) -> dict:
    """Files an expense for a manager to approve.

    Args:
      amount_eur: The amount spent, in euros.
      purpose: What it was for.
    """
    tool_context.state["last_expense"] = {"amount_eur": amount_eur, "purpose": purpose}
    return {"status": "pending", "ticket": f"EXP-{int(amount_eur * 100)}"}


class OfflineExpenseModel(BaseLlm):
    """Offline stand-in: files the expense, then reports the manager's decision."""

    model: str = "offline-expense-model"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        response = next(
            (p.function_response for p in last.parts or [] if p.function_response), None
        )
        if response is not None:
            part = types.Part(text=f"Your reimbursement was {response.response.get('status')}.")
        else:
            said = " ".join(p.text or "" for p in last.parts or [])
            match = re.search(r"(\d+(?:\.\d+)?)", said)
            part = types.Part.from_function_call(
                name="request_reimbursement",
                args={"amount_eur": float(match.group(1)) if match else 20.0, "purpose": said[:60]},
            )
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


ONLINE = bool(os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY"))
root_agent = Agent(
    name="expense_agent",
    model="gemini-2.5-flash" if ONLINE else OfflineExpenseModel(),
    instruction="You file expenses with request_reimbursement and report the decision.",
    tools=[LongRunningFunctionTool(request_reimbursement, deadline=timedelta(days=14))],
)
