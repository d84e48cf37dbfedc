"""NodeLike → node (google.adk.workflow.utils._workflow_graph_utils.build_node).

Runs on: both sides (pure; construction time). What is not implemented yet raises
NotImplementedError naming it here, where 2.13 would build it: a tool as a node
(2.13's `_ToolNode`), and (in `node()`) parallel workers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from ..._unimplemented import not_implemented
from ...tools.base_tool import BaseTool
from ...utils._agent_mode import AgentMode
from .._base_node import START, BaseNode
from .._errors import WorkflowConfigurationError
from .._function_node import FunctionNode
from .._graph import NodeLike
from .._retry_config import RetryConfig


def is_node_like(item: Any) -> bool:
    return isinstance(item, (BaseNode, BaseTool)) or callable(item) or item == "START"


def build_node(
    node_like: NodeLike,
    *,
    name: str | None = None,
    rerun_on_resume: bool | None = None,
    retry_config: RetryConfig | None = None,
    timeout: float | None = None,
    auth_config: Any = None,
    require_confirmation: bool | Callable[..., bool] | None = None,
    parameter_binding: Literal["state", "node_input"] = "state",
    default_llm_mode: AgentMode = AgentMode.SINGLE_TURN,
) -> BaseNode:
    """A node for `node_like`, with the overrides given (a node given is copied only
    when something changes; an LlmAgent is always cloned, as 2.13 does)."""
    if isinstance(node_like, str) and node_like == "START":
        return START
    if isinstance(node_like, BaseNode):
        return _from_node(
            node_like, name, rerun_on_resume, retry_config, timeout, require_confirmation
        )
    if isinstance(node_like, BaseTool):
        if require_confirmation:
            raise WorkflowConfigurationError(
                "require_confirmation is only supported for FunctionNode or callable"
                f" functions, got {type(node_like).__name__}."
            )
        raise not_implemented(
            f"A tool ({type(node_like).__name__} {node_like.name!r}) as a workflow node",
            "tool nodes (google.adk's _ToolNode)",
        )
    if callable(node_like):
        return FunctionNode(
            func=node_like,
            name=name,
            rerun_on_resume=(
                True
                if (require_confirmation and rerun_on_resume is None)
                else (rerun_on_resume or False)
            ),
            retry_config=retry_config,
            timeout=timeout,
            auth_config=auth_config,
            require_confirmation=(
                require_confirmation if require_confirmation is not None else False
            ),
            parameter_binding=parameter_binding,
        )
    raise WorkflowConfigurationError(
        f"Invalid node type: {type(node_like)}. Node must be a BaseNode, a"
        " BaseAgent, a BaseTool, or a callable."
    )


def _from_node(
    node: BaseNode,
    name: str | None,
    rerun_on_resume: bool | None,
    retry_config: RetryConfig | None,
    timeout: float | None,
    require_confirmation: bool | Callable[..., bool] | None,
) -> BaseNode:
    from ...agents.llm_agent import LlmAgent

    overrides: dict[str, Any] = {}
    if name is not None:
        overrides["name"] = name
    if rerun_on_resume is not None:
        overrides["rerun_on_resume"] = rerun_on_resume
    if retry_config is not None:
        overrides["retry_config"] = retry_config
    if timeout is not None:
        overrides["timeout"] = timeout
    if isinstance(node, FunctionNode):
        confirmation = (
            require_confirmation if require_confirmation is not None else node.require_confirmation
        )
        if confirmation and rerun_on_resume is False:
            raise WorkflowConfigurationError(
                "FunctionNode with require_confirmation requires rerun_on_resume=True."
                " The node must rerun after confirmation is provided."
            )
        if require_confirmation is not None:
            overrides["require_confirmation"] = require_confirmation
            if require_confirmation and rerun_on_resume is None:
                overrides["rerun_on_resume"] = True
            if require_confirmation:
                raise not_implemented("node(..., require_confirmation=...)", "node confirmations")
    elif require_confirmation:
        raise WorkflowConfigurationError(
            f"require_confirmation is only supported on FunctionNode, got {type(node).__name__}."
        )
    if isinstance(node, LlmAgent):
        return _llm_agent_node(node, overrides, rerun_on_resume)
    return node.model_copy(update=overrides) if overrides else node


def _llm_agent_node(
    agent: Any, overrides: dict[str, Any], rerun_on_resume: bool | None
) -> BaseNode:
    """2.13's LlmAgent node: a clone (its parent kept), rerun on resume, mode None →
    chat under a parent else single_turn, single_turn without history unless
    include_contents was set, task/chat waiting for output. Fields set after cloning:
    an agent refuses node settings it cannot run, and a graph does not run yet."""
    if rerun_on_resume is None:
        overrides["rerun_on_resume"] = True
    if "name" in overrides:
        node = agent.clone(update={"name": overrides.pop("name")})
    else:
        node = agent.clone()
    for field, value in overrides.items():
        setattr(node, field, value)
    node.parent_agent = agent.parent_agent
    if node.mode is None:
        node.mode = AgentMode.CHAT.value if node.parent_agent is not None else "single_turn"
    if node.mode == AgentMode.SINGLE_TURN and "include_contents" not in agent.model_fields_set:
        node.include_contents = "none"
    if node.mode in (AgentMode.TASK, AgentMode.CHAT):
        node.wait_for_output = True
    if node.parallel_worker:
        raise not_implemented(
            f"LlmAgent(parallel_worker=True) {agent.name!r} as a workflow node",
            "parallel workers",
        )
    return node  # type: ignore[no-any-return]
