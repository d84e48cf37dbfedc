"""Workflow: a graph of nodes (google.adk.workflow.Workflow).

Runs on: both sides (declared in user apps). Construction is 2.13's: `edges` parsed
into a validated Graph (2.13's error texts), FunctionNode parameters checked against
`state_schema`. Running a Workflow is not implemented yet (README, *Workflow graphs*).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import Field

from ._base_node import START, BaseNode
from ._errors import WorkflowInvariantError
from ._graph import EdgeItem, Graph


class Workflow(BaseNode):
    """A graph of nodes: START's successors get the workflow's input, each node's
    output triggers its successors, the single terminal output is the workflow's."""

    rerun_on_resume: bool = Field(default=True)
    edges: list[EdgeItem] = Field(
        description="Edges to build the workflow graph.", default_factory=list
    )
    max_concurrency: int | None = None
    """At most this many graph-scheduled nodes at once (None or <= 0: unlimited;
    `ctx.run_node` children are not counted)."""
    graph: Graph | None = Field(description="The compiled workflow graph.", default=None)
    """Compiled from `edges` at construction (None: no edges, the workflow does nothing)."""

    def model_post_init(self, context: Any) -> None:
        super().model_post_init(context)
        if self.edges and self.graph is None:
            graph = Graph.from_edge_items(self.edges)
            graph.validate_graph()
            self.graph = graph
        self._validate_state_schema()

    def _validate_state_schema(self) -> None:
        """Every FunctionNode parameter read from state must be a state_schema field."""
        if not self.state_schema or not self.graph:
            return
        from ..sessions.state import StateSchemaError
        from ._function_node import FunctionNode

        fields = list(self.state_schema.model_fields)
        for node in self.graph.nodes:
            if not isinstance(node, FunctionNode):
                continue
            for param in node._sig.parameters:
                if param in ("ctx", "node_input", "self"):
                    continue
                if param not in fields:
                    raise StateSchemaError(
                        f"FunctionNode {node.name!r} parameter {param!r} is not declared in"
                        f" state_schema {self.state_schema.__name__!r}. Declared fields:"
                        f" {sorted(fields)}"
                    )

    def _require_graph(self) -> Graph:
        if self.graph is None:
            raise WorkflowInvariantError(
                f"Workflow {self.name}: graph is not compiled. The orchestration"
                " loop must not be entered without a compiled graph."
            )
        return self.graph

    def _iter_static_children(self) -> Iterator[BaseNode]:
        if self.graph is None:
            return
        for node in self.graph.nodes:
            if node.name != START.name:
                yield node
