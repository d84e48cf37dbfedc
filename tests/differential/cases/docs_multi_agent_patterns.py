"""ADK docs, agents/multi-agents: coordinator, hierarchical AgentTool, tool-driven flow.

A coordinator transfers to a billing agent (disallow_transfer_to_peers) that
answers and whose tool sets actions.transfer_to_agent back to the
coordinator; the coordinator calls a research assistant through an AgentTool
that itself uses AgentTools (nested, each an LlmAgent with output_key); a
tool sets actions.skip_summarization, ending the turn on its result; an async
InstructionProvider and an async tool.
"""

from google.adk.agents import LlmAgent
from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.tools import agent_tool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["I was double charged", "research solar panels", "show my invoice"]


def refund(amount: float, tool_context: ToolContext) -> dict:
    """Refunds an amount, then hands the user back to the coordinator.

    Args:
      amount: The amount to refund.
    """
    tool_context.state["refunded"] = amount
    tool_context.actions.transfer_to_agent = "HelpDeskCoordinator"
    return {"status": "refunded", "amount": amount}


async def show_invoice(tool_context: ToolContext) -> dict:
    """Shows the latest invoice as it is."""
    tool_context.actions.skip_summarization = True
    return {"invoice": "INV-7", "total": 42.5}


async def coordinator_instruction(context: ReadonlyContext) -> str:
    refunded = context.state.get("refunded")
    note = f" A refund of {refunded} was made." if refunded else ""
    return "Route user requests: Use Billing agent for payment issues." + note


def build(scripted):
    call = types.Part.from_function_call
    billing_agent = LlmAgent(
        name="Billing",
        model=scripted(call(name="refund", args={"amount": 10.0}), model="billing-model"),
        description="Handles billing inquiries.",
        tools=[refund],
        disallow_transfer_to_peers=True,
    )
    support_agent = LlmAgent(
        name="Support",
        model=scripted(model="support-model"),
        description="Handles technical support requests.",
    )
    web_searcher = LlmAgent(
        name="WebSearch",
        model=scripted("Panels are 22% efficient.", model="search-model"),
        description="Performs web searches for facts.",
        output_key="search_result",
    )
    summarizer = LlmAgent(
        name="Summarizer",
        model=scripted("Efficient panels.", model="summary-model"),
        description="Summarizes text.",
        instruction="Summarize: {search_result}",
    )
    research_assistant = LlmAgent(
        name="ResearchAssistant",
        model=scripted(
            call(name="WebSearch", args={"request": "solar panels"}),
            call(name="Summarizer", args={"request": "Panels are 22% efficient."}),
            "Solar panels: efficient.",
            model="research-model",
        ),
        description="Finds and summarizes information on a topic.",
        tools=[agent_tool.AgentTool(agent=web_searcher), agent_tool.AgentTool(agent=summarizer)],
    )
    return LlmAgent(
        name="HelpDeskCoordinator",
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "Billing"}),
            # the refund's transfer hands control back: the coordinator answers
            "Your refund of 10 is done.",
            call(name="ResearchAssistant", args={"request": "solar panels"}),
            "Here is your research: Solar panels: efficient.",
            call(name="show_invoice", args={}),
            model="coordinator-model",
        ),
        instruction=coordinator_instruction,
        description="Main help desk router.",
        sub_agents=[billing_agent, support_agent],
        tools=[agent_tool.AgentTool(agent=research_assistant), show_invoice],
    )
