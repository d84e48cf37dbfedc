"""CallbackContext: what agent/model callbacks get; state writes become a state_delta.

Runs on: activity side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from google.genai import types

from ..events.event_actions import EventActions
from ..sessions.state import State
from .readonly_context import ReadonlyContext

if TYPE_CHECKING:
    from ..artifacts.base_artifact_service import ArtifactVersion, BaseArtifactService
    from ..events.event import Event
    from ..events.tool_confirmation import ToolConfirmation
    from ..memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
    from ..memory.memory_entry import MemoryEntry
    from .invocation_context import InvocationContext


class CallbackContext(ReadonlyContext):
    function_call_id: str | None = None
    """The current tool call's id (a ToolContext's; None in agent and model callbacks)."""
    tool_confirmation: ToolConfirmation | None = None
    """The answer to the current tool call's confirmation request, if any."""

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

    def request_confirmation(self, *, hint: str | None = None, payload: Any | None = None) -> None:
        """Ask a human to approve the current tool call; the tool is called again once
        answered (google-adk 2.13: only where there is a tool call)."""
        from ..events.tool_confirmation import ToolConfirmation

        if not self.function_call_id:
            raise ValueError(
                "request_confirmation requires function_call_id. "
                "This method can only be used in a tool context."
            )
        self._event_actions.requested_tool_confirmations[self.function_call_id] = ToolConfirmation(
            hint=hint or "", payload=payload
        )

    def get_invocation_context(self) -> InvocationContext:
        """A copy of the invocation context (its session the one this context shows)."""
        return self._invocation_context.model_copy(update={"session": self.session})

    @property
    def state(self) -> State:  # type: ignore[override]
        """Session state; writes are recorded in the event's state_delta."""
        return self._state

    @property
    def custom_metadata(self) -> dict[str, Any]:  # type: ignore[override]
        """The run's custom metadata (RunConfig.custom_metadata without internal keys)."""
        return self._invocation_context._custom_metadata

    @property
    def actions(self) -> EventActions:
        self._state.record_nested_writes()  # writes into containers read from state
        return self._event_actions

    # ── artifacts (google-adk 2.13's Context methods) ───────────────────────

    def _require_artifact_service(self) -> BaseArtifactService:
        service: BaseArtifactService | None = self._invocation_context.artifact_service
        if service is None:
            raise ValueError("Artifact service is not initialized.")
        return service

    def _artifact_scope(self) -> dict[str, str]:
        ctx = self._invocation_context
        return {"app_name": ctx.app_name, "user_id": ctx.user_id, "session_id": ctx.session.id}

    async def load_artifact(self, filename: str, version: int | None = None) -> types.Part | None:
        """A version of one of the session's artifacts (`user:` names: the user's); the
        latest when `version` is None; None when there is none."""
        return await self._require_artifact_service().load_artifact(
            **self._artifact_scope(), filename=filename, version=version
        )

    async def save_artifact(
        self,
        filename: str,
        artifact: types.Part,
        custom_metadata: dict[str, Any] | None = None,
    ) -> int:
        """Save a new version and record it in this event's artifact_delta; its number."""
        version = await self._require_artifact_service().save_artifact(
            **self._artifact_scope(),
            filename=filename,
            artifact=artifact,
            custom_metadata=custom_metadata,
        )
        self._event_actions.artifact_delta[filename] = version
        return version

    async def get_artifact_version(
        self, filename: str, version: int | None = None
    ) -> ArtifactVersion | None:
        """A version's metadata (the latest when `version` is None)."""
        return await self._require_artifact_service().get_artifact_version(
            **self._artifact_scope(), filename=filename, version=version
        )

    async def list_artifacts(self) -> list[str]:
        """The filenames of the session's artifacts and the user's."""
        return await self._require_artifact_service().list_artifact_keys(**self._artifact_scope())

    # ── memory (google-adk 2.13's Context methods; the worker's memory service) ──

    def _require_memory_service(self, error_message: str) -> BaseMemoryService:
        service = self._invocation_context.memory_service
        if service is None:
            raise ValueError(error_message)
        return service  # type: ignore[no-any-return]

    async def add_session_to_memory(self) -> None:
        """Remember this session's events (its state as this step sees it)."""
        service = self._require_memory_service(
            "Cannot add session to memory: memory service is not available."
        )
        await service.add_session_to_memory(self._invocation_context.session)

    async def add_events_to_memory(
        self, *, events: Sequence[Event], custom_metadata: Mapping[str, object] | None = None
    ) -> None:
        """Remember these events, in this session's scope."""
        service = self._require_memory_service(
            "Cannot add events to memory: memory service is not available."
        )
        session = self._invocation_context.session
        await service.add_events_to_memory(
            app_name=session.app_name,
            user_id=session.user_id,
            session_id=session.id,
            events=events,
            custom_metadata=custom_metadata,
        )

    async def add_memory(
        self,
        *,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Write memories directly, in this user's scope."""
        service = self._require_memory_service(
            "Cannot add memory: memory service is not available."
        )
        session = self._invocation_context.session
        await service.add_memory(
            app_name=session.app_name,
            user_id=session.user_id,
            memories=memories,
            custom_metadata=custom_metadata,
        )

    async def search_memory(self, query: str) -> SearchMemoryResponse:
        """The current user's memories that match `query`."""
        service = self._require_memory_service("Memory service is not available.")
        return await service.search_memory(
            app_name=self._invocation_context.app_name,
            user_id=self._invocation_context.user_id,
            query=query,
        )

    async def delete_memory(self, memory_id: str | None = None) -> None:
        """Forget one of the current user's memories."""
        service = self._require_memory_service(
            "Cannot delete memory: memory service is not available."
        )
        await service.delete_memory(
            app_name=self._invocation_context.app_name,
            user_id=self._invocation_context.user_id,
            memory_id=memory_id,
        )
