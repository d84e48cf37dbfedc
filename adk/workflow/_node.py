"""Node (for subclassing) and the `node` decorator/function (google.adk.workflow).

Runs on: both sides (declared in user apps). Parallel workers
(`parallel_worker=True`) are not implemented yet: NotImplementedError at construction.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any, Literal

from pydantic import Field, model_validator

from .._unimplemented import not_implemented
from ._base_node import BaseNode
from ._errors import WorkflowConfigurationError
from ._graph import NodeLike
from ._retry_config import RetryConfig
from .utils._workflow_graph_utils import build_node


def _check_max_parallel_workers(parallel_worker: bool, max_parallel_workers: int | None) -> None:
    if max_parallel_workers is not None:
        if not parallel_worker:
            raise WorkflowConfigurationError(
                "max_parallel_workers can only be set when parallel_worker is True."
            )
        if max_parallel_workers < 1:
            raise WorkflowConfigurationError(
                "max_parallel_workers must be greater than or equal to 1."
            )


def node(
    node_like: NodeLike | None = None,
    *,
    name: str | None = None,
    rerun_on_resume: bool | None = None,
    retry_config: RetryConfig | None = None,
    timeout: float | None = None,
    parallel_worker: bool = False,
    max_parallel_workers: int | None = None,
    auth_config: Any = None,
    require_confirmation: bool | Callable[..., bool] | None = None,
    parameter_binding: Literal["state", "node_input"] = "state",
) -> Any:
    """A node for `node_like` with these overrides (`@node`, `@node(...)`, `node(x, ...)`)."""
    _check_max_parallel_workers(parallel_worker, max_parallel_workers)
    if node_like is None:
        return lambda func: node(
            func,
            name=name,
            rerun_on_resume=rerun_on_resume,
            retry_config=retry_config,
            timeout=timeout,
            parallel_worker=parallel_worker,
            max_parallel_workers=max_parallel_workers,
            auth_config=auth_config,
            require_confirmation=require_confirmation,
            parameter_binding=parameter_binding,
        )
    built = build_node(
        node_like,
        name=name,
        rerun_on_resume=rerun_on_resume,
        retry_config=retry_config,
        timeout=timeout,
        auth_config=auth_config,
        require_confirmation=require_confirmation,
        parameter_binding=parameter_binding,
    )
    if parallel_worker:
        raise not_implemented("node(..., parallel_worker=True)", "parallel workers")
    return built


class Node(BaseNode):
    """A node to subclass: implement `async def run_node_impl(*, ctx, node_input)`."""

    parallel_worker: bool = Field(default=False, frozen=True)
    """Run once per item of a list input (not implemented here)."""
    max_parallel_workers: int | None = Field(default=None, frozen=True)
    """At most this many items at once (None: no limit)."""

    @model_validator(mode="after")
    def _validate_parallel_worker_config(self) -> Node:
        _check_max_parallel_workers(self.parallel_worker, self.max_parallel_workers)
        if self.parallel_worker:
            raise not_implemented(
                f"{type(self).__name__}(parallel_worker=True)", "parallel workers"
            )
        return self

    async def run_node_impl(self, *, ctx: Any, node_input: Any) -> AsyncGenerator[Any, None]:
        """What the node does: yields Events, RequestInputs, raw outputs or None."""
        raise NotImplementedError("run_node_impl must be implemented.")
        yield  # an async generator

    async def _run_impl(self, *, ctx: Any, node_input: Any) -> AsyncGenerator[Any, None]:
        async for output in self.run_node_impl(ctx=ctx, node_input=node_input):
            yield output
