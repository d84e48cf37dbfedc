"""Money transfers: `transfer_money` needs a human's approval above a threshold.

`require_confirmation` is a callable deciding from the call's arguments (ADK's
signature: it takes the function's own parameters). The invocation records
ADK's confirmation request and waits durably; approve or reject it with
`python -m client approve|reject <workflow-id> <id>` (see `python -m client pending`).
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncGenerator

from google.genai import types

from adk import Agent
from adk.models import BaseLlm, LlmRequest, LlmResponse
from adk.tools import FunctionTool, ToolContext

APPROVAL_THRESHOLD_EUR = 1000.0


def needs_approval(amount_eur: float, to_account: str, tool_context: ToolContext) -> bool:
    """Transfers above the threshold need a human (ADK passes the function's own args)."""
    return amount_eur > APPROVAL_THRESHOLD_EUR


def transfer_money(amount_eur: float, to_account: str, tool_context: ToolContext) -> dict:
    """Transfers money to an account.

    Args:
      amount_eur: How much, in euros.
      to_account: The IBAN or account name to pay.
    """
    transfers = list(tool_context.state.get("transfers", []))
    transfers.append({"amount_eur": amount_eur, "to": to_account})
    tool_context.state["transfers"] = transfers
    return {"status": "sent", "amount_eur": amount_eur, "to": to_account}


class OfflineBankModel(BaseLlm):
    """Offline stand-in: parses "send 1500 to Bob", then reports the tool's result."""

    model: str = "offline-bank-model"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1]
        response = next(
            (p.function_response for p in last.parts or [] if p.function_response), None
        )
        if response is not None:
            result = response.response or {}
            text = (
                f"Sent {result['amount_eur']} EUR to {result['to']}."
                if result.get("status") == "sent"
                else f"The transfer did not happen: {result.get('error')}"
            )
            part = types.Part(text=text)
        else:
            said = " ".join(p.text or "" for p in last.parts or [])
            match = re.search(r"(\d+(?:\.\d+)?)\D+to (\w+)", said)
            amount, to = (float(match.group(1)), match.group(2)) if match else (10.0, "Bob")
            part = types.Part.from_function_call(
                name="transfer_money", args={"amount_eur": amount, "to_account": to}
            )
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


ONLINE = bool(os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY"))
root_agent = Agent(
    name="bank_agent",
    model="gemini-2.5-flash" if ONLINE else OfflineBankModel(),
    instruction="You move money for the user with transfer_money.",
    tools=[FunctionTool(transfer_money, require_confirmation=needs_approval)],
)
