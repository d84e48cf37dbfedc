from google.adk.agents import LlmAgent
from google.adk.tools.tool_context import ToolContext


def invoice_total(invoice: str, tool_context: ToolContext) -> dict:
    """The total of an invoice.

    Args:
      invoice: The invoice number.
    """
    tool_context.state["last_invoice"] = invoice
    return {"invoice": invoice, "total_eur": 42}


support_agent = LlmAgent(
    name="support",
    model="kit-support",
    description="Fixes technical problems.",
    instruction="Help with technical problems. Last invoice: {last_invoice?}",
)
