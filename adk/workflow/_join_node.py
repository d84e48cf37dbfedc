"""JoinNode: waits for every predecessor, outputs `{predecessor: output}`
(google.adk.workflow.JoinNode).

Runs on: both sides (declared in user apps; the scheduler decides when it fires,
workflows/_graph.py, and its run, passing its input through, is an `adk.run_node`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from ._base_node import BaseNode


class JoinNode(BaseNode):
    """Fires once every predecessor has completed since its last firing; its input and
    output are the dict of their outputs by predecessor name (each validated against
    `input_schema`)."""

    @property
    def _requires_all_predecessors(self) -> bool:
        return True

    async def _run_impl(self, *, ctx: Any, node_input: Any) -> AsyncGenerator[Any, None]:
        from ..events.event import Event

        yield Event(output=node_input, branch=ctx._invocation_context.branch)
