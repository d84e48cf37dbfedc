"""The Context a graph node's code gets: google-adk 2.13's Context with its node members.

Runs on: activity side (the `adk.run_node` activity builds it). Ported members: `node`,
`node_path`, `run_id`, `attempt_count` (1-based: the workflow retries a node under its `retry_config`),
`resume_inputs` (empty: human input is not), `error`, `error_node_path`, `output`
(settable once), `route` (recorded on the node's events; routed edges themselves are
not implemented yet), `interrupt_ids`, `event_author`. The others (`run_node`,
`parent_ctx`, `render_ui_widget`, ...) still raise NotImplementedError naming them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..agents.context import Context

if TYPE_CHECKING:
    from ..agents.invocation_context import InvocationContext
    from ._base_node import BaseNode


class NodeContext(Context):
    """Context of one run of one graph node."""

    def __init__(
        self,
        invocation_context: InvocationContext,
        *,
        node: BaseNode,
        node_path: str,
        event_author: str,
        attempt_count: int = 1,
    ) -> None:
        super().__init__(invocation_context)
        self._attempt_count = attempt_count
        self._node = node
        self._node_path = node_path
        self._run_id = node_path.rsplit("@", 1)[-1] if "@" in node_path else ""
        self._event_author = event_author
        self._output_value: Any = None
        self._output_emitted = False
        self._route_value: Any = None
        self._route_emitted = False

    @property
    def node(self) -> BaseNode:
        return self._node

    @property
    def node_path(self) -> str:
        return self._node_path

    @property
    def run_id(self) -> str:
        return self._run_id

    @property
    def attempt_count(self) -> int:
        return self._attempt_count

    @property
    def resume_inputs(self) -> dict[str, Any]:
        return {}

    @property
    def error(self) -> Exception | None:
        return None

    @property
    def error_node_path(self) -> str:
        return ""

    @property
    def interrupt_ids(self) -> set[str]:
        return set()

    @property
    def event_author(self) -> str:
        return self._event_author

    @event_author.setter
    def event_author(self, value: str) -> None:
        self._event_author = value

    @property
    def output(self) -> Any:
        """The run's output: set once (a yielded output sets it too); set directly, it is
        emitted as an event after the node returns."""
        return self._output_value

    @output.setter
    def output(self, value: Any) -> None:
        if self._output_value is not None:
            raise ValueError("Output already set. A node can produce at most one output.")
        self._output_value = value

    @property
    def route(self) -> Any:
        """The route the node emits (a value or a list); set directly, it rides on an
        event of its own after the node returns unless an event carried it."""
        return self._route_value

    @route.setter
    def route(self, value: Any) -> None:
        self._route_value = value
        self._route_emitted = False
