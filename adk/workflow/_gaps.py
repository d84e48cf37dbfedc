"""What a Workflow uses that durable-adk does not run yet (docs/design/workflow-graph.md,
slices S3-S11): running such a graph raises NotImplementedError naming the first one.

Runs on: process side (the Runner and the worker check an app before it runs).
"""

from __future__ import annotations

from typing import Any

from ._base_node import START, BaseNode
from ._function_node import FunctionNode
from ._workflow import Workflow


def graph_gaps(workflow: Workflow, app: Any = None) -> list[tuple[str, str]]:
    """(what, the missing feature) for each thing the graph uses that cannot run yet;
    empty when the graph runs: function, custom and join nodes joined by edges, routed
    or not (chains, fan-out, routes, loops taken by routes), wait_for_output,
    max_concurrency, a node's retry_config and timeout, nested Workflows (without a
    retry_config or timeout of their own)."""
    gaps: list[tuple[str, str]] = []
    found = gaps.append
    if app is not None and app.plugins:
        found(("App(plugins=...) with a Workflow root", "plugins around workflow graphs yet"))
    if getattr(app, "events_compaction_config", None) is not None:
        found(("App(events_compaction_config=...) with a Workflow root", "compaction yet"))
    if workflow.retry_config is not None or workflow.timeout is not None:
        found((f"Workflow {workflow.name!r} retry_config/timeout", "workflow retries yet"))
    if workflow.state_schema is not None:
        found(("Workflow(state_schema=...)", "state schemas yet"))
    if workflow.graph is None:
        return gaps
    for node in workflow.graph.nodes:
        if node is not START:
            gaps += _node_gaps(node)
    return gaps


def _node_gaps(node: BaseNode) -> list[tuple[str, str]]:
    from ..agents.base_agent import BaseAgent

    what = f"node {node.name!r}"
    if isinstance(node, BaseAgent):
        return [(f"the agent {what}", "agent nodes in workflow graphs yet")]
    if isinstance(node, Workflow):
        return graph_gaps(node)
    if not isinstance(node, FunctionNode) and type(node)._run_impl is BaseNode._run_impl:
        return [(what, f"{type(node).__name__} nodes yet")]
    gaps = []
    if node.state_schema is not None:
        gaps.append((f"{what} state_schema", "state schemas yet"))
    return gaps
