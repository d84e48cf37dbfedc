"""Workflows (graphs of nodes): mirrors `google.adk.workflow` (google-adk 2.13).

Runs on: process side (declared in user apps). Declaring a graph works as in 2.13
(fields, defaults, parsing, validation and their error texts); running one is not
implemented yet and raises NotImplementedError naming it (README, *Workflow graphs*).
Exports are loaded lazily, as 2.13 does (agents import the node base class).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .._unported import unported_attribute

if TYPE_CHECKING:
    from ._base_node import START, BaseNode
    from ._errors import NodeTimeoutError
    from ._function_node import FunctionNode
    from ._graph import DEFAULT_ROUTE, Edge
    from ._join_node import JoinNode
    from ._node import Node, node
    from ._retry_config import RetryConfig
    from ._workflow import Workflow

_EXPORTS = {
    "BaseNode": "._base_node",
    "START": "._base_node",
    "Node": "._node",
    "node": "._node",
    "FunctionNode": "._function_node",
    "JoinNode": "._join_node",
    "Edge": "._graph",
    "DEFAULT_ROUTE": "._graph",
    "RetryConfig": "._retry_config",
    "NodeTimeoutError": "._errors",
    "Workflow": "._workflow",
}

__all__ = [
    "DEFAULT_ROUTE",
    "START",
    "BaseNode",
    "Edge",
    "FunctionNode",
    "JoinNode",
    "Node",
    "NodeTimeoutError",
    "RetryConfig",
    "Workflow",
    "node",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise unported_attribute(__name__, name)
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
