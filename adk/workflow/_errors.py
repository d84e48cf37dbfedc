"""Exceptions of google-adk 2.13's workflow package (google.adk.workflow._errors).

Runs on: process side (the client rebuilds them from the workflow's failure: the
workflow names the class, workflows/_transfers.py).

    ValueError
    ├── GraphValidationError        a graph that is not well formed
    ├── WorkflowConfigurationError  a node, edge or workflow declared in an unusable way
    └── WorkflowDataError           run data that does not fit what accepts it
    RuntimeError
    └── WorkflowInvariantError      an engine bug
    Exception
    ├── NodeTimeoutError            a node ran longer than its `timeout`
    └── DynamicNodeFailError        a `ctx.run_node` child failed
    BaseException
    └── NodeInterruptedError        internal: a dynamic child asked for input
"""

from __future__ import annotations

from typing import Any


class NodeInterruptedError(BaseException):
    """Internal: a dynamic child node has unanswered interrupts (a BaseException, so
    user code's `except Exception` does not swallow it)."""


class GraphValidationError(ValueError):
    """A workflow graph that is not well formed."""


class WorkflowConfigurationError(ValueError):
    """Something declared in an unusable way (e.g. an agent name that is not a
    Python identifier): the same declaration fails the same way every time."""


class WorkflowDataError(ValueError):
    """Data that violates a workflow rule, e.g. a node input that does not fit, or a
    transfer_to_agent naming the agent itself or a target its disallow_transfer_*
    flags forbid."""


class WorkflowInvariantError(RuntimeError):
    """The engine reached a state it is supposed to prevent (a bug, not the caller's)."""


class NodeTimeoutError(Exception):
    """A node exceeded its `timeout` (an Exception, so `retry_config` can retry it)."""

    def __init__(self, *, node_name: str, timeout: float) -> None:
        self.node_name = node_name
        self.timeout = timeout
        super().__init__(f"Node '{node_name}' timed out after {timeout} seconds.")


class DynamicNodeFailError(Exception):
    """A dynamic node (`ctx.run_node`) failed: carries the child's error."""

    def __init__(self, *, message: str, error: Exception, error_node_path: str) -> None:
        self.error = error
        self.error_node_path = error_node_path
        self.status_code: Any | None = getattr(error, "status_code", getattr(error, "code", None))
        details = getattr(error, "details", None)
        if details is None:
            response = getattr(error, "response", None)
            if response is not None:
                details = getattr(response, "text", None)
        self.details: Any | None = details
        super().__init__(message)
