"""Turns a live agent tree into the serializable AgentSpec the workflow runs on.

Runs on: activity side (begin activity) and process side (validated at worker start).
"""

from __future__ import annotations

from adk._unimplemented import not_implemented
from adk.activity_options import ActivityOptions, code_options
from adk.agents.base_agent import BaseAgent
from adk.agents.llm_agent import LlmAgent
from adk.agents.loop_agent import LoopAgent
from adk.agents.parallel_agent import ParallelAgent
from adk.agents.sequential_agent import SequentialAgent
from adk.flows.llm_flows.code_execution import runs_code
from adk.plugins.plugin_manager import PluginCallbackName, PluginManager
from adk.tools.agent_tool import AgentTool
from adk.tools.base_tool import BaseTool
from adk.tools.base_toolset import BaseToolset
from adk.tools.function_tool import FunctionTool
from adk.tools.set_model_response_tool import SetModelResponseTool
from workflows.contracts import AgentKind, AgentSpec, ToolKind, ToolSpec


def agent_kind(agent: BaseAgent) -> AgentKind:
    overrides = type(agent)._run_async_impl is not BaseAgent._run_async_impl
    builtin = (LlmAgent, SequentialAgent, ParallelAgent, LoopAgent)
    if overrides and isinstance(agent, builtin):
        raise not_implemented(
            f"{type(agent).__name__}._run_async_impl (a subclass of"
            f" {next(b for b in builtin if isinstance(agent, b)).__name__} with its own run)",
            "overriding the run of a built-in agent kind (subclass BaseAgent for a custom"
            " agent instead)",
        )
    if isinstance(agent, LlmAgent):
        return "llm"
    if isinstance(agent, SequentialAgent):
        return "sequential"
    if isinstance(agent, ParallelAgent):
        return "parallel"
    if isinstance(agent, LoopAgent):
        return "loop"
    return "custom"


def tool_kind(tool: BaseTool) -> ToolKind:
    if tool.name == "transfer_to_agent":
        return "transfer"
    if tool.name == "exit_loop":
        return "exit_loop"
    if isinstance(tool, AgentTool):
        own = [m for m in ("run_async", "run_async_with_events") if _overrides(tool, m)]
        if own:
            raise not_implemented(
                f"{type(tool).__name__}.{own[0]} (a subclass of AgentTool with its own run)",
                "overriding an AgentTool's run: its agent runs as a child workflow, not"
                " through the tool's run_async (wrap the agent, or use a FunctionTool that"
                " does what the override did)",
            )
        return "agent"
    return "long_running" if tool.is_long_running else "function"


def _overrides(tool: AgentTool, method: str) -> bool:
    mine = getattr(type(tool), method, None)
    return mine is not None and mine is not getattr(AgentTool, method, None)


def tool_options(tool: BaseTool, agent_default: ActivityOptions | None) -> ActivityOptions | None:
    """A tool's own options over its agent's default."""
    own = getattr(tool, "activity_options", None)
    if own and agent_default:
        return own.merged_over(agent_default)  # type: ignore[no-any-return]
    return own or agent_default


def static_tools(agent: LlmAgent) -> list[BaseTool]:
    """The agent's tools known without a context (toolsets resolve per step)."""
    from adk.tools.base_toolset import BaseToolset
    from adk.tools.function_tool import FunctionTool

    tools: list[BaseTool] = []
    for tool in map(agent._swapped_tool, agent.tools):  # (a search agent's AgentTool)
        if isinstance(tool, BaseTool):
            tools.append(tool)
        elif callable(tool) and not isinstance(tool, BaseToolset):
            tools.append(agent._wrapped(tool, FunctionTool))
    return tools


_TOOL_HOOKS: tuple[PluginCallbackName, ...] = (
    "before_tool_callback",
    "after_tool_callback",
    "on_tool_error_callback",
)


def build_spec(agent: BaseAgent, plugins: PluginManager) -> AgentSpec:
    """The agent's spec; `plugins`: the app's (their agent hooks need the callback step)."""
    plugin_hooks = plugins.overrides("before_agent_callback") or plugins.overrides(
        "after_agent_callback"
    )
    spec = AgentSpec(
        name=agent.name,
        kind=agent_kind(agent),
        description=agent.description,
        sub_agents=[build_spec(sub, plugins) for sub in agent.sub_agents],
        has_agent_callbacks=bool(
            agent.before_agent_callback or agent.after_agent_callback or plugin_hooks
        ),
    )
    if isinstance(agent, LlmAgent):
        spec.model = agent.model_name
        for tool in static_tools(agent):
            if isinstance(tool, AgentTool) and not tool.include_plugins and plugins.plugins:
                raise not_implemented(
                    f"AgentTool({tool.agent.name}, include_plugins=False) in an app with plugins",
                    "running an AgentTool's agent without the app's plugins",
                )
        spec.tools = [
            ToolSpec(
                name=tool.name,
                kind=tool_kind(tool),
                activity_options=tool_options(tool, agent.tool_activity_options)
                or ActivityOptions(),
                agent=build_spec(tool.agent, plugins) if isinstance(tool, AgentTool) else None,
            )
            for tool in static_tools(agent)
        ]
        spec.step_extras = [
            f"{what} {type(part).__name__}"
            for what, part in (("planner", agent.planner), ("code", agent.code_executor))
            if part is not None
        ]
        if (executor := runs_code(agent)) is not None:
            spec.code_executor = type(executor).__name__
            spec.code_activity_options = code_options(executor.timeout_seconds)
        spec.output_key = agent.output_key
        spec.accumulates_output = bool(
            agent.output_key and not agent.output_schema and agent.mode != "task"
        )
        spec.disallow_transfer_to_parent = agent.disallow_transfer_to_parent
        spec.disallow_transfer_to_peers = agent.disallow_transfer_to_peers
        spec.include_contents = agent.include_contents
        spec.model_activity_options = agent.model_activity_options
        spec.tool_activity_options = agent.tool_activity_options
    if isinstance(agent, LoopAgent):
        spec.max_iterations = agent.max_iterations
    return spec


def touches_state(
    agent: LlmAgent, plugins: PluginManager, tool: BaseTool | None, name: str
) -> bool:
    """Whether any code a call of `name` runs can read or write the session.

    Tool callbacks (the agent's or a plugin's) and toolsets get a context (a toolset
    or tool with `_reads_context` False, e.g. an MCP toolset without header provider,
    predicate filter or confirmation, says it does not read it); a
    FunctionTool's function only if it declares a context parameter (or asks for
    confirmation). A plain function with no context is called with its arguments
    alone: loading the session is wasted work, and it can run alongside the step's
    other calls (CallPlan.shares_state).
    """
    if (
        any(plugins.overrides(hook) for hook in _TOOL_HOOKS)
        or agent.canonical_before_tool_callbacks
        or agent.canonical_after_tool_callbacks
        or agent.canonical_on_tool_error_callbacks
        or any(_reads_context(t) for t in agent.tools if isinstance(t, BaseToolset))
    ):
        return True
    if tool is None:  # unknown names get an error result: no context
        return name == "transfer_to_agent"  # (a toolset's tool: its toolset said above)
    if isinstance(tool, SetModelResponseTool):
        return False  # it validates its arguments, sets its own actions, reads nothing
    if not _reads_context(tool):
        return False  # e.g. an MCP tool with no confirmation or header provider
    return not (
        isinstance(tool, FunctionTool)
        and type(tool).run_async is FunctionTool.run_async
        and not tool.takes_context
        and not tool.may_ask_confirmation
    )


def _reads_context(tool: BaseTool | BaseToolset) -> bool:
    """A tool's or toolset's own word on whether it reads the context (default: yes)."""
    return bool(getattr(tool, "_reads_context", True))
