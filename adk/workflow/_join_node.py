"""JoinNode: waits for every predecessor, outputs `{predecessor: output}`
(google.adk.workflow.JoinNode).

Runs on: both sides (declared in user apps; the scheduler runs it).
"""

from __future__ import annotations

from ._base_node import BaseNode


class JoinNode(BaseNode):
    """Fires once every predecessor has completed since its last firing; its input and
    output are the dict of their outputs by predecessor name."""

    @property
    def _requires_all_predecessors(self) -> bool:
        return True
