"""Edges and the compiled graph of a Workflow (google.adk.workflow._graph).

Runs on: both sides (pure data; declared in user apps).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, SerializeAsAny

from ..tools.base_tool import BaseTool
from ._base_node import START, BaseNode
from ._errors import WorkflowConfigurationError

logger = logging.getLogger(__name__)

RouteValue: TypeAlias = bool | int | str
"""A route: what a node emits and what a conditional edge is tagged with."""

NodeLike: TypeAlias = BaseNode | BaseTool | Callable[..., Any] | Literal["START"]
"""What becomes a node: a node (an agent is one), a tool, a callable, or 'START'."""

RoutingMap: TypeAlias = dict[RouteValue, NodeLike | tuple[NodeLike, ...]]
"""`{route: target}` in a chain: one routed edge per key (a tuple target fans out)."""


class Edge(BaseModel):
    """An edge of the graph: taken always (route None), or when the source's route is
    (one of) `route`."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    from_node: Annotated[BaseNode, SerializeAsAny()]
    to_node: Annotated[BaseNode, SerializeAsAny()]
    route: RouteValue | list[RouteValue] | None = Field(
        description=(
            "The route(s) that this edge is associated with."
            " A single value or a list of values. The edge is followed when the"
            " emitted route matches any value in the list."
        ),
        default=None,
    )


ChainElement: TypeAlias = NodeLike | tuple[NodeLike, ...] | RoutingMap
"""An element of a chain: a node, a fan-out/fan-in tuple, or a routing map."""

EdgeItem: TypeAlias = Edge | tuple[ChainElement, ...]
"""An item of `Workflow.edges`: an Edge, or a chain tuple connecting consecutive elements."""

DEFAULT_ROUTE = "__DEFAULT__"
"""An edge tagged with it is taken when none of the source's other routed edges matched."""


class Graph(BaseModel):
    """The compiled graph: nodes (inferred from edges, first appearance first) and edges."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    nodes: list[Annotated[BaseNode, SerializeAsAny()]] = Field(default_factory=list)
    edges: list[Edge] = Field(default_factory=list)
    _terminal_node_names: list[str] = PrivateAttr(default_factory=list)
    """Nodes with no outgoing edge, in node order (2.13 keeps a set); set by validate_graph."""

    @classmethod
    def from_edge_items(cls, edge_items: list[EdgeItem]) -> Graph:
        from .utils._graph_parser import parse_edge_items

        return Graph(edges=parse_edge_items(edge_items))

    def model_post_init(self, context: Any) -> None:
        if "nodes" in self.model_fields_set and self.nodes:
            raise WorkflowConfigurationError(
                "Nodes are inferred from edges, do not set nodes explicitly."
            )
        if self.edges:
            nodes = {id(n): n for edge in self.edges for n in (edge.from_node, edge.to_node)}
            self.nodes = list(nodes.values())

    def get_next_pending_nodes(
        self, node_name: str, routes_to_match: RouteValue | list[RouteValue] | None
    ) -> list[str]:
        """The targets a completed node triggers, in edge order: unrouted edges always;
        routed ones whose route matches; DEFAULT_ROUTE ones when no other route matched."""
        targets: list[str] = []
        matched = False
        defaults: list[str] = []
        routed = False
        wanted = routes_to_match if isinstance(routes_to_match, list) else [routes_to_match]
        for edge in self.edges:
            if edge.from_node.name != node_name:
                continue
            if edge.route is None:
                targets.append(edge.to_node.name)
                continue
            routed = True
            if edge.route == DEFAULT_ROUTE:
                defaults.append(edge.to_node.name)
                continue
            routes = edge.route if isinstance(edge.route, list) else [edge.route]
            if isinstance(routes_to_match, list):
                hit = any(route in routes for route in wanted)
            else:
                hit = routes_to_match in routes
            if hit:
                targets.append(edge.to_node.name)
                matched = True
        if not matched:
            targets.extend(defaults)
        if routed and not targets:
            logger.warning(
                "Node '%s' has conditional/DEFAULT edges but none were matched by the"
                " emitted route(s): %s. The branch will end.",
                node_name,
                routes_to_match,
            )
        return targets

    def validate_graph(self) -> None:
        from .utils._graph_validation import validate_graph

        self._terminal_node_names = validate_graph(self.nodes, self.edges)

    @property
    def terminal_node_names(self) -> list[str]:
        return list(self._terminal_node_names)


__all__ = [
    "DEFAULT_ROUTE",
    "START",
    "ChainElement",
    "Edge",
    "EdgeItem",
    "Graph",
    "NodeLike",
    "RouteValue",
    "RoutingMap",
]
