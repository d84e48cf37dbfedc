"""`Workflow.edges` items → Edges (google.adk.workflow.utils._graph_parser).

Runs on: both sides (pure; construction time).
"""

from __future__ import annotations

import itertools
from typing import Any, get_args

from .._base_node import START, BaseNode
from .._errors import WorkflowConfigurationError
from .._graph import ChainElement, Edge, EdgeItem, NodeLike, RouteValue, RoutingMap
from ._workflow_graph_utils import build_node, is_node_like

_NODE_LIKE = "Values must be NodeLike (BaseNode, BaseAgent, BaseTool, callable, or 'START')."


def _expand_routing_map(
    from_element: ChainElement, routing_map: RoutingMap
) -> list[tuple[ChainElement, NodeLike | tuple[NodeLike, ...], RouteValue]]:
    if not routing_map:
        raise WorkflowConfigurationError(
            "Routing map must not be empty. Provide at least one route -> node mapping."
        )
    route_types = get_args(RouteValue)
    expanded: list[tuple[ChainElement, NodeLike | tuple[NodeLike, ...], RouteValue]] = []
    for route, target in routing_map.items():
        if not isinstance(route, route_types):
            raise WorkflowConfigurationError(
                f"Invalid routing map key: {route!r} (type {type(route).__name__})."
                " Keys must be RouteValue (str, int, or bool)."
            )
        if isinstance(target, tuple):
            for item in target:
                if not is_node_like(item):
                    raise WorkflowConfigurationError(
                        f"Invalid node in fan-out tuple for route {route!r}:"
                        f" {item!r} (type {type(item).__name__}). {_NODE_LIKE}"
                    )
        elif not is_node_like(target):
            raise WorkflowConfigurationError(
                f"Invalid routing map value for route {route!r}:"
                f" {target!r} (type {type(target).__name__}). {_NODE_LIKE}"
            )
        expanded.append((from_element, target, route))
    return expanded


def _flatten(element: Any) -> list[NodeLike]:
    if isinstance(element, dict):
        nodes: list[NodeLike] = []
        for target in element.values():
            nodes.extend(target if isinstance(target, tuple) else [target])
        return nodes
    if isinstance(element, tuple):
        return list(element)
    return [element]


def _node(node_like: NodeLike, built: dict[int, BaseNode]) -> BaseNode:
    """One node per object (by identity): a callable or tool used twice is one node."""
    if isinstance(node_like, str) and node_like == "START":
        return START
    key = id(node_like)
    if key in built:
        return built[key]
    node = build_node(node_like)
    if node is not node_like:
        built[key] = node
    return node


def _edges(from_el: Any, to_el: Any, route: RouteValue | None, built: dict[int, BaseNode]):
    return [
        Edge(from_node=_node(a, built), to_node=_node(b, built), route=route)
        for a in _flatten(from_el)
        for b in _flatten(to_el)
    ]


def _chain(chain: tuple[Any, ...], built: dict[int, BaseNode]) -> list[Edge]:
    edges: list[Edge] = []
    for from_el, to_el in itertools.pairwise(chain):
        if isinstance(to_el, dict):
            if isinstance(from_el, dict):
                raise WorkflowConfigurationError(
                    "Consecutive routing maps are not allowed in a chain."
                    " Split them into separate edge items."
                )
            for source, target, route in _expand_routing_map(from_el, to_el):
                edges += _edges(source, target, route, built)
        else:
            edges += _edges(from_el, to_el, None, built)
    return edges


def parse_edge_items(edge_items: list[EdgeItem]) -> list[Edge]:
    """The graph's edges, in declaration order."""
    built: dict[int, BaseNode] = {}
    edges: list[Edge] = []
    for item in edge_items:
        if isinstance(item, Edge):
            edges.append(
                Edge(
                    from_node=_node(item.from_node, built),
                    to_node=_node(item.to_node, built),
                    route=item.route,
                )
            )
        elif isinstance(item, tuple):
            edges += _chain(item, built)
        else:
            raise WorkflowConfigurationError(f"Invalid edge type: {type(item)}")
    return edges
