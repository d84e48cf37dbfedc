"""CallbackContext: what agent/model callbacks get; state writes become a state_delta.

Runs on: activity side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events.event_actions import EventActions
from ..sessions.state import State
from .readonly_context import ReadonlyContext

if TYPE_CHECKING:
    from .invocation_context import InvocationContext


class CallbackContext(ReadonlyContext):
    def __init__(
        self,
        invocation_context: InvocationContext,
        *,
        event_actions: EventActions | None = None,
    ) -> None:
        super().__init__(invocation_context)
        self._event_actions = event_actions or EventActions()
        self._state = State(
            value=invocation_context.session.state,
            delta=self._event_actions.state_delta,
        )

    @property
    def state(self) -> State:  # type: ignore[override]
        """Session state; writes are recorded in the event's state_delta."""
        return self._state

    @property
    def actions(self) -> EventActions:
        self._state.record_nested_writes()  # writes into containers read from state
        return self._event_actions
