"""The help desk's model (`model_code` in root_agent.yaml; the sub-agents inherit it).

With GOOGLE_API_KEY (or GEMINI_API_KEY) it is Gemini; otherwise an offline model
that reads the request, so the demo runs anywhere and survives worker restarts.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncGenerator

from google.genai import types

from adk.models import BaseLlm, LlmRequest, LlmResponse

ONLINE = bool(os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY"))


class HelpdeskModel(BaseLlm):
    """Offline stand-in: plays each agent's part from what the request holds."""

    model: str = "offline-helpdesk-model"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        yield LlmResponse(content=types.Content(role="model", parts=[self._part(llm_request)]))

    def _part(self, request: LlmRequest) -> types.Part:
        instruction = str(request.config.system_instruction or "")
        last = request.contents[-1] if request.contents else None
        parts = (last.parts if last else None) or []
        response = next((p.function_response for p in parts if p.function_response), None)
        asked = [  # the customer's messages (not other agents' turns, quoted "For context:")
            text
            for c in request.contents
            if c.role == "user"
            and (text := "".join(p.text or "" for p in c.parts or []))
            and not text.startswith("For context:")
        ]
        question = asked[-1] if asked else ""
        about_billing = bool(re.search(r"invoice|bill|pay", question, re.I))
        if '"billing"' in instruction and about_billing:
            if response and response.name == "invoice_total":
                result = response.response or {}
                return types.Part(
                    text=f"Invoice {result.get('invoice')} comes to {result.get('total_eur')} EUR"
                    f" and is {result.get('status')}."
                )
            number = re.findall(r"\d+", question)
            call = {"invoice": number[-1] if number else "unknown"}
            return types.Part.from_function_call(name="invoice_total", args=call)
        if '"tech_support"' in instruction and not about_billing:
            if response and response.name == "restart_router":
                return types.Part(text="I restarted your router; it should be back in a minute.")
            return types.Part.from_function_call(name="restart_router", args={})
        target = "billing" if about_billing else "tech_support"
        return types.Part.from_function_call(name="transfer_to_agent", args={"agent_name": target})


helpdesk_model: str | BaseLlm = "gemini-2.5-flash" if ONLINE else HelpdeskModel()
