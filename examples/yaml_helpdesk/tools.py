"""The help desk's tools, named in the YAML by their fully qualified names."""

from adk.tools import ToolContext


def invoice_total(invoice: str, tool_context: ToolContext) -> dict:
    """Looks up the total of an invoice.

    Args:
      invoice: The invoice number, e.g. "1042".
    """
    tool_context.state["last_invoice"] = invoice
    return {"invoice": invoice, "total_eur": 42.5, "status": "paid"}


def restart_router(tool_context: ToolContext) -> dict:
    """Restarts the customer's router remotely."""
    restarts = tool_context.state.get("router_restarts", 0) + 1
    tool_context.state["router_restarts"] = restarts
    return {"status": "restarted", "restarts": restarts}
