"""Graph validation (google.adk.workflow.utils._graph_validation): 2.13's checks, in
its order, with its messages.

Runs on: both sides (pure; construction time). Deterministic where 2.13 is not:
2.13 walks node names from a set when looking for an unconditional cycle, so which
rotation of a cycle its message shows depends on the string hash seed; here nodes are
walked in graph order (the first node of the cycle is the first one reached).
"""

from __future__ import annotations

from collections import Counter

from ...utils._agent_mode import AgentMode
from .._base_node import START, BaseNode
from .._errors import GraphValidationError
from .._graph import DEFAULT_ROUTE, Edge, RouteValue

_FAILED = "Graph validation failed."


def _duplicate_node_names(nodes: list[BaseNode]) -> list[str]:
    names = [node.name for node in nodes]
    duplicates = sorted(name for name, count in Counter(names).items() if count > 1)
    if duplicates:
        raise GraphValidationError(
            f"{_FAILED} Duplicate node names found: {duplicates}. This means multiple"
            " distinct node objects have the same name. If you intended to reuse the same"
            " node, ensure you pass the exact same object instance. If you intended to have"
            " distinct nodes, ensure they have unique names."
        )
    return list(dict.fromkeys(names))


def _start_node(names: list[str]) -> None:
    if START.name not in names:
        raise GraphValidationError(
            f"{_FAILED} START node (name: '{START.name}') not found in graph nodes."
        )


def _start_edges(edges: list[Edge]) -> None:
    for edge in edges:
        if edge.from_node.name == START.name and edge.route is not None:
            raise GraphValidationError(
                f"{_FAILED} Edges from START must not have routes"
                f" (edge to {edge.to_node.name} has route {edge.route})."
            )


def _connectivity(edges: list[Edge], names: list[str]) -> None:
    successors: dict[str, list[str]] = {name: [] for name in names}
    for edge in edges:
        successors[edge.from_node.name].append(edge.to_node.name)
    reachable: dict[str, None] = {}
    stack = [START.name]
    while stack:
        name = stack.pop()
        if name not in reachable:
            reachable[name] = None
            stack += [n for n in successors[name] if n not in reachable]
    unreachable = sorted(name for name in names if name not in reachable)
    if unreachable:
        raise GraphValidationError(
            f"{_FAILED} The following nodes are unreachable from START: {unreachable}"
        )
    if any(edge.to_node.name == START.name for edge in edges):
        raise GraphValidationError(f"{_FAILED} START node must not have incoming edges.")


def _routes(route: RouteValue | list[RouteValue] | None) -> list[RouteValue | None]:
    if route is None:
        return [None]
    return list(route) if isinstance(route, list) else [route]


def _duplicate_edges(edges: list[Edge]) -> None:
    seen: dict[tuple[str, str], list[RouteValue | None]] = {}
    for edge in edges:
        key = (edge.from_node.name, edge.to_node.name)
        routes = _routes(edge.route)
        if key in seen:
            known = seen[key]
            if None in known or None in routes or any(route in known for route in routes):
                raise GraphValidationError(
                    f"{_FAILED} Duplicate edge found: from={key[0]}, to={key[1]}"
                )
            known += routes
        else:
            seen[key] = list(routes)


def _default_routes(edges: list[Edge]) -> None:
    for edge in edges:
        if isinstance(edge.route, list) and DEFAULT_ROUTE in edge.route:
            raise GraphValidationError(
                f"{_FAILED} DEFAULT_ROUTE cannot be combined with other routes in a list"
                f" (edge from={edge.from_node.name}, to={edge.to_node.name})."
                " Use a separate edge for DEFAULT_ROUTE."
            )


def _unconditional_cycles(edges: list[Edge], names: list[str]) -> None:
    successors: dict[str, list[str]] = {name: [] for name in names}
    for edge in edges:
        if edge.route is None:
            successors[edge.from_node.name].append(edge.to_node.name)
    on_path: list[str] = []
    done: set[str] = set()  # membership only: the walk order comes from `names`

    def visit(name: str) -> None:
        on_path.append(name)
        for successor in successors[name]:
            if successor in on_path:
                cycle = on_path[on_path.index(successor) :] + [successor]
                raise GraphValidationError(
                    f"{_FAILED} Unconditional cycle detected: {' -> '.join(cycle)}. Cycles"
                    " must include at least one conditional (routed) edge to avoid infinite"
                    " loops."
                )
            if successor not in done:
                visit(successor)
        on_path.pop()
        done.add(name)

    for name in names:
        if name not in done:
            visit(name)


def _static_schemas(edges: list[Edge]) -> None:
    for edge in edges:
        source, target = edge.from_node, edge.to_node
        if source.output_schema and target.input_schema:
            if source.output_schema != target.input_schema:
                raise GraphValidationError(
                    f"{_FAILED} Schema mismatch on edge {source.name} -> {target.name}."
                    f" Output schema {source.output_schema} does not match"
                    f" input schema {target.input_schema}."
                )


def _chat_agent_wiring(edges: list[Edge]) -> None:
    from ...agents.llm_agent import LlmAgent

    for edge in edges:
        target = edge.to_node
        if isinstance(target, LlmAgent) and target.mode == AgentMode.CHAT:
            if edge.from_node.name != START.name:
                raise GraphValidationError(
                    f"The agent '{target.name}' has been added to the workflow with"
                    f" mode='chat' following node '{edge.from_node.name}'. This is not"
                    " supported because chat-mode agents rely on conversational history"
                    " (session events) and cannot consume direct node inputs from preceding"
                    " nodes. Please change the agent's mode to 'single_turn'"
                )


def _node_outgoing_edges(nodes: list[BaseNode], edges: list[Edge]) -> None:
    outgoing: dict[int, list[Edge]] = {id(node): [] for node in nodes}
    for edge in edges:
        outgoing[id(edge.from_node)].append(edge)
    for node in nodes:
        node._validate_outgoing_edges(outgoing[id(node)])


def validate_graph(nodes: list[BaseNode], edges: list[Edge]) -> list[str]:
    """Raises GraphValidationError for the first rule broken; returns the terminal
    nodes (no outgoing edge), in node order."""
    names = _duplicate_node_names(nodes)
    _start_node(names)
    _start_edges(edges)
    _connectivity(edges, names)
    _duplicate_edges(edges)
    _default_routes(edges)
    _unconditional_cycles(edges, names)
    _static_schemas(edges)
    _chat_agent_wiring(edges)
    _node_outgoing_edges(nodes, edges)
    sources = {edge.from_node.name for edge in edges}
    return [name for name in names if name != START.name and name not in sources]
