"""Agent-transfer request processor: tells the model which agents it may hand over to.

Runs on: activity side (model-step activity).

Follows google-adk 2.13 (AutoFlow only). The targets are the agent's
sub-agents, then its parent (unless disallow_transfer_to_parent), then its
peers (unless disallow_transfer_to_peers); the parent and peers only when the
parent is an LlmAgent. The processor appends the transfer instructions to the
system instruction and declares the `transfer_to_agent` tool, whose
`agent_name` is restricted to the targets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...agents.base_agent import BaseAgent
    from ...agents.invocation_context import InvocationContext
    from ...agents.llm_agent import LlmAgent
    from ...models.llm_request import LlmRequest

TRANSFER_TO_AGENT_FUNCTION_NAME = "transfer_to_agent"
# Sub-agents in these modes are run as tools, never transferred to.
_NON_TRANSFER_MODES = ("task", "single_turn")


def get_transfer_targets(agent: BaseAgent) -> list[BaseAgent]:
    """Sub-agents, then the parent, then the peers (per the agent's transfer flags)."""
    from ...agents.llm_agent import LlmAgent

    if not isinstance(agent, LlmAgent):
        return []
    targets = [sub for sub in agent.sub_agents if _transferable_mode(sub)]
    parent = agent.parent_agent
    if not isinstance(parent, LlmAgent):
        return targets
    if not agent.disallow_transfer_to_parent:
        targets.append(parent)
    if not agent.disallow_transfer_to_peers:
        targets.extend(
            peer
            for peer in parent.sub_agents
            if peer.name != agent.name and _transferable_mode(peer)
        )
    return targets


def build_transfer_instructions(agent: LlmAgent, targets: list[BaseAgent]) -> str:
    """The system-instruction text listing the targets (exact ADK wording)."""
    listing = "\n".join(
        f"\nAgent name: {target.name}\nAgent description: {target.description}\n"
        for target in targets
    )
    names = ", ".join(f"`{name}`" for name in sorted(target.name for target in targets))
    tool = TRANSFER_TO_AGENT_FUNCTION_NAME
    text = (
        "\nYou have a list of other agents to transfer to:\n\n"
        f"{listing}\n\n"
        "If you are the best to answer the question according to your description,\n"
        "you can answer it.\n\n"
        "If another agent is better for answering the question according to its\n"
        f"description, call `{tool}` function to transfer the question to that\n"
        "agent. When transferring, do not generate any text other than the function\n"
        "call.\n\n"
        f"**NOTE**: the only available agents for `{tool}` function are\n"
        f"{names}.\n"
    )
    if agent.parent_agent and not agent.disallow_transfer_to_parent:
        text += (
            "\nIf neither you nor the other agents are best for the question, transfer"
            f" to your parent agent {agent.parent_agent.name}.\n"
        )
    return text


async def process(ctx: InvocationContext, agent: LlmAgent, llm_request: LlmRequest) -> None:
    from ...tools.tool_context import ToolContext
    from ...tools.transfer_to_agent_tool import TransferToAgentTool

    targets = get_transfer_targets(agent)
    if not targets:
        return
    if error := incompatible_builtin_tool_error(agent, llm_request.model):
        # google-adk 2.13: refused when a sub-agent is a target; no transfer otherwise
        if any(target in agent.sub_agents for target in targets):
            raise ValueError(error)
        return
    tool = TransferToAgentTool(agent_names=[target.name for target in targets])
    if _transferable_mode(agent):
        llm_request.append_instructions([build_transfer_instructions(agent, targets)])
    await tool.process_llm_request(tool_context=ToolContext(ctx), llm_request=llm_request)


def incompatible_builtin_tool_error(agent: LlmAgent, model: str | None) -> str | None:
    """Why the agent's built-in search tools cannot go with transfer's function call on
    its model (Gemini before 3 refuses the two together); None when they can."""
    from ...tools.enterprise_search_tool import EnterpriseWebSearchTool
    from ...tools.google_search_tool import GoogleSearchTool
    from ...tools.vertex_ai_search_tool import VertexAiSearchTool

    for tool in agent.tools:
        if not isinstance(tool, GoogleSearchTool | VertexAiSearchTool | EnterpriseWebSearchTool):
            continue
        if builtin_tools_with_function_calling(getattr(tool, "model", None) or model):
            continue
        if (
            isinstance(tool, GoogleSearchTool | VertexAiSearchTool)
            and not tool.bypass_multi_tools_limit
        ):
            return (
                f"Agent '{agent.name}' has sub-agent transfer targets but is configured with"
                f" {type(tool).__name__} without bypass_multi_tools_limit=True. Gemini models"
                " before 3.0 do not allow built-in search tools to be combined with function"
                " calling (agent delegation). To enable both search and sub-agent delegation,"
                " use a Gemini 3+ model or set bypass_multi_tools_limit=True on"
                " GoogleSearchTool or VertexAiSearchTool."
            )
        if isinstance(tool, EnterpriseWebSearchTool):
            return (
                f"Agent '{agent.name}' has sub-agent transfer targets but is configured with"
                " EnterpriseWebSearchTool. Gemini models before 3.0 do not allow"
                " EnterpriseWebSearchTool to be combined with function calling (agent"
                " delegation). To enable both, use a Gemini 3+ model or move"
                ' EnterpriseWebSearchTool into a mode="single_turn" sub-agent.'
            )
    return None


def builtin_tools_with_function_calling(model: str | None) -> bool:
    """Gemini 3 and later take built-in tools beside function declarations."""
    from ...utils.model_name_utils import extract_model_name as model_name_of

    name = model_name_of(model) if model else ""
    if not name.startswith("gemini-"):
        return False
    major = name.removeprefix("gemini-").split("-", 1)[0].split(".", 1)[0]
    return major.isdigit() and int(major) >= 3


def _transferable_mode(agent: BaseAgent) -> bool:
    return getattr(agent, "mode", None) not in _NON_TRANSFER_MODES
