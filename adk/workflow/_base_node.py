"""BaseNode and START: a node of a workflow graph (google.adk.workflow.BaseNode).

Runs on: both sides (pure data; declared in user apps). Fields and defaults are
google-adk 2.13's. Running a node is not implemented yet: `run` raises
NotImplementedError naming it.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncGenerator, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .._unimplemented import not_implemented
from ..utils._schema_utils import SchemaType
from ._errors import WorkflowConfigurationError
from ._retry_config import RetryConfig

if TYPE_CHECKING:
    from ..events.event import Event
    from ._graph import Edge


class BaseNode(BaseModel, abc.ABC):
    """A node of a workflow graph. Subclasses implement `_run_impl` (an async generator)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str = Field(...)
    """Unique within the graph; a Python identifier."""

    @field_validator("name")
    @classmethod
    def _validate_name(cls, value: str) -> str:
        if not value.isidentifier():  # pydantic wraps it in a ValidationError, as 2.13
            raise WorkflowConfigurationError(
                f"Node name '{value}' must be a valid Python identifier."
            )
        return value

    description: str = ""
    rerun_on_resume: bool = False
    """After an interrupt is answered: rerun from scratch (True), or complete with the
    answer as the node's output (False)."""
    wait_for_output: bool = False
    """A run that ends with neither output nor route leaves the node waiting (its
    downstream not triggered); a later trigger runs it again."""
    retry_config: RetryConfig | None = None
    """How a failed run is retried (None: not retried)."""
    timeout: float | None = None
    """Seconds a run may take; beyond: NodeTimeoutError (retryable)."""
    input_schema: SchemaType | None = None
    """Validates and coerces the node's input (a raw dict or genai Schema: not enforced)."""
    output_schema: SchemaType | None = None
    """Validates and coerces the node's output (a raw dict or genai Schema: not enforced)."""
    state_schema: type[BaseModel] | None = None
    """The state keys (and types) the node's `ctx.state` writes must fit (prefixed keys
    exempt); children inherit it."""

    async def run(self, *, ctx: Any, node_input: Any) -> AsyncGenerator[Event, None]:
        """google-adk 2.13's node entry point: not ported yet."""
        raise not_implemented(f"{type(self).__name__}.run", "running workflow nodes")
        yield  # an async generator

    async def _run_impl(self, *, ctx: Any, node_input: Any) -> AsyncGenerator[Any, None]:
        """What a node does: yields Events, RequestInputs, raw outputs or None."""
        raise NotImplementedError(f"_run_impl for {type(self).__name__} is not implemented.")
        yield  # an async generator

    def _iter_static_children(self) -> Iterator[BaseNode]:
        """The nodes declared on this one (a Workflow's graph nodes)."""
        return
        yield

    @property
    def _requires_all_predecessors(self) -> bool:
        """True: the node waits for every predecessor before running (JoinNode)."""
        return False

    def _validate_outgoing_edges(self, edges: list[Edge]) -> None:
        """Refuses wiring the node cannot serve (raise GraphValidationError); the
        default accepts any edges."""


START = BaseNode(name="__START__")
"""The entry point of every graph: never run; its successors receive the workflow's input."""
