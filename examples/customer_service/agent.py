"""Customer-service dispatcher: a root agent routing to billing, support and sales.

Offline, each agent has a scripted model that reads the request (so the demo
runs without a key and survives worker restarts): the dispatcher routes by
keywords, billing answers invoices and hands purchases to its peer `sales`.
With GOOGLE_API_KEY set, every agent uses Gemini instead.
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator

from google.genai import types

from adk import Agent
from adk.models import BaseLlm, LlmRequest, LlmResponse

ONLINE = bool(os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY"))


def get_invoice(invoice_id: str) -> dict:
    """Looks up an invoice.

    Args:
      invoice_id: The invoice number, e.g. "INV-42".
    """
    return {"invoice_id": invoice_id, "amount_eur": 49.0, "status": "paid twice"}


def reset_password(email: str) -> dict:
    """Sends a password-reset link."""
    return {"sent_to": email}


def quote_plan(plan: str) -> dict:
    """Returns the price of a subscription plan."""
    return {"plan": plan, "price_eur_per_month": {"pro": 29, "team": 99}.get(plan.lower(), 9)}


def _last_user_text(request: LlmRequest) -> str:
    """The customer's latest words (other agents' messages arrive as "For context: ...")."""
    for content in reversed(request.contents):
        texts = [p.text or "" for p in content.parts or [] if p.text]
        if content.role == "user" and texts and not texts[0].startswith("For context:"):
            return " ".join(texts).lower()
    return ""


def _tool_result(request: LlmRequest) -> dict | None:
    last = request.contents[-1] if request.contents else None
    for part in (last.parts if last else None) or []:
        if part.function_response:
            return part.function_response.response
    return None


def _reply(part: types.Part) -> LlmResponse:
    return LlmResponse(content=types.Content(role="model", parts=[part]))


class RoutingModel(BaseLlm):
    """Offline stand-in: routes or answers by keywords in the latest user text."""

    model: str = "offline-routing-model"
    role: str = "dispatcher"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        yield _reply(self._decide(llm_request))

    def _decide(self, request: LlmRequest) -> types.Part:
        text, result = _last_user_text(request), _tool_result(request)
        transfer = types.Part.from_function_call
        if self.role == "dispatcher":
            target = (
                "billing"
                if "invoice" in text or "charged" in text
                else ("sales" if "buy" in text or "plan" in text else "support")
            )
            return transfer(name="transfer_to_agent", args={"agent_name": target})
        if result is not None:
            return types.Part(text=f"Done: {result}")
        if self.role == "billing":
            if "upgrade" in text or "plan" in text:
                return transfer(name="transfer_to_agent", args={"agent_name": "sales"})
            return transfer(name="get_invoice", args={"invoice_id": "INV-42"})
        if self.role == "sales":
            return transfer(name="quote_plan", args={"plan": "pro"})
        return transfer(name="reset_password", args={"email": "user@example.com"})


def _model(role: str) -> str | BaseLlm:
    return "gemini-2.5-flash" if ONLINE else RoutingModel(role=role)


billing = Agent(
    name="billing",
    model=_model("billing"),
    description="Handles invoices, refunds and double charges.",
    instruction="You are a billing specialist. Use get_invoice. Hand plan purchases to sales.",
    tools=[get_invoice],
)
support = Agent(
    name="support",
    model=_model("support"),
    description="Handles log-in problems and technical issues.",
    instruction="You are a support engineer.",
    tools=[reset_password],
)
sales = Agent(
    name="sales",
    model=_model("sales"),
    description="Handles plans, upgrades and purchases.",
    instruction="You are a sales rep. Quote plans with quote_plan.",
    tools=[quote_plan],
)
root_agent = Agent(
    name="dispatcher",
    model=_model("dispatcher"),
    description="Routes customers to the right team.",
    instruction="You route customer requests to billing, support or sales.",
    sub_agents=[billing, support, sales],
)
