"""The scheduler of a google.adk.workflow Workflow root (docs/design/workflow-graph.md §2.3).

Runs on: workflow (Temporal sandbox; deterministic). S1 of the slice plan: a chain of
function (or custom) nodes from START, non-resumable; what else a graph may use is
refused before it runs (adk/workflow/_gaps.py). As google-adk 2.13's Workflow: START's
successor gets the user's message; each node's run is `name@N` under `wf@1` (N counting
that node's runs); a node's output triggers its successors; the output of a terminal
node (no outgoing edge) is also the workflow's (`output_for` names both). Each run is
one `adk.run_node` activity (node code is user code); its events are recorded in order
before the next node runs (it reads the state they wrote). A node's exception: its
error event is recorded, and the invocation fails with that exception, as 2.13's
runner re-raises it to the caller.
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.activity_options import TOOL_DEFAULTS

    from . import names
    from ._options import activity_kwargs
    from ._runtime import AgentRuntime
    from .contracts import AgentSpec, GraphSpec, NodeRunInput, NodeRunOutput

START = "__START__"


async def run_graph(runtime: AgentRuntime, graph: GraphSpec, message: types.Content | None) -> None:
    """Run the graph from START to its end (its nodes' events recorded, in order)."""
    base = f"{graph.name}@1"
    runs: dict[str, int] = {}
    # triggers in arrival order: (node, its input)
    triggers: list[tuple[str, Any]] = [(name, message) for name in graph.successors(START)]
    while triggers:
        name, node_input = triggers.pop(0)
        runs[name] = runs.get(name, 0) + 1
        path = f"{base}/{name}@{runs[name]}"
        output = await _run_node(runtime, graph, name, path, node_input)
        triggers += [(target, output) for target in graph.successors(name)]


async def _run_node(
    runtime: AgentRuntime, graph: GraphSpec, name: str, path: str, node_input: Any
) -> Any:
    runtime.check_stop()
    ref = runtime.ref(AgentSpec(name=graph.name, kind="custom"), None)
    ref.node_path = path
    content = node_input if isinstance(node_input, types.Content) else None
    result = await workflow.execute_activity(
        names.RUN_NODE,
        NodeRunInput(
            ref=ref,
            node_name=name,
            node_input=None if content is not None else node_input,
            content_input=content,
            output_for=[f"{graph.name}@1"] if name in graph.terminal else [],
        ),
        result_type=NodeRunOutput,
        summary=f"node {name} ({path})",
        **activity_kwargs(None, TOOL_DEFAULTS),
    )
    runtime.adopt_metadata(result.custom_metadata)
    for event in result.events:
        runtime.apply_temp(event.actions.state_delta)
        runtime._add_pending(event)
    await runtime.flush()
    if result.error is not None:
        error = result.error
        raise error.as_application_error(f"{error.name} in node {name} ({path}): {error.message}")
    return result.output if result.has_output else None
