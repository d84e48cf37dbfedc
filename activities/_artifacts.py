"""The artifact service an activity's contexts get: the worker's, or, inside an
AgentTool's run, the same one scoped to the caller's session; on a retried step,
one that does not save again what the earlier attempt's record names.

Runs on: activity side (worker process).

google-adk 2.13 runs an AgentTool's agent in a Runner of its own whose artifact
service forwards every call to the calling tool's context: the agent saves and
loads the caller's session's artifacts (whatever session and scope it names), and
what it saves also lands in the AgentTool response's artifact_delta (see
`finish_agent_tool`). Here the AgentTool's run keeps its own session, and its
SessionRef names the caller's (`artifact_session`, the top caller's when nested).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from google.genai import types

from adk.artifacts.base_artifact_service import ArtifactVersion, BaseArtifactService, ensure_part
from adk.sessions.base_session_service import BaseSessionService
from workflows.contracts import SessionRef, StepRef

from ._support import retried


def artifact_service_for(
    service: BaseArtifactService | None, ref: SessionRef
) -> BaseArtifactService | None:
    """The service for activities on session `ref` (an AgentTool's: forwarding)."""
    if ref.artifact_session is None:
        return service
    return _CallerScoped(service, ref.artifact_session)


class _Delegating(BaseArtifactService):
    """Every call to `inner`, in the session `_session` says."""

    def __init__(self, inner: BaseArtifactService | None) -> None:
        self._inner = inner

    def _session(self, session_id: str | None) -> str | None:
        return session_id

    def _service(self) -> BaseArtifactService:
        if self._inner is None:  # (an AgentTool whose caller has none: 2.13's error)
            raise ValueError("Artifact service is not initialized.")
        return self._inner

    async def save_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        artifact: types.Part | dict[str, Any],
        session_id: str | None = None,
        custom_metadata: dict[str, Any] | None = None,
    ) -> int:
        return await self._service().save_artifact(
            app_name=app_name,
            user_id=user_id,
            session_id=self._session(session_id),
            filename=filename,
            artifact=artifact,
            custom_metadata=custom_metadata,
        )

    async def load_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
    ) -> types.Part | None:
        return await self._service().load_artifact(
            app_name=app_name,
            user_id=user_id,
            session_id=self._session(session_id),
            filename=filename,
            version=version,
        )

    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> list[str]:
        return await self._service().list_artifact_keys(
            app_name=app_name, user_id=user_id, session_id=self._session(session_id)
        )

    async def delete_artifact(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> None:
        await self._service().delete_artifact(
            app_name=app_name,
            user_id=user_id,
            session_id=self._session(session_id),
            filename=filename,
        )

    async def list_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[int]:
        return await self._service().list_versions(
            app_name=app_name,
            user_id=user_id,
            session_id=self._session(session_id),
            filename=filename,
        )

    async def list_artifact_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[ArtifactVersion]:
        return await self._service().list_artifact_versions(
            app_name=app_name,
            user_id=user_id,
            session_id=self._session(session_id),
            filename=filename,
        )

    async def get_artifact_version(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
    ) -> ArtifactVersion | None:
        return await self._service().get_artifact_version(
            app_name=app_name,
            user_id=user_id,
            session_id=self._session(session_id),
            filename=filename,
            version=version,
        )


class _CallerScoped(_Delegating):
    """Every call on the caller's session, whatever scope it names (2.13's forwarding)."""

    def __init__(self, inner: BaseArtifactService | None, session_id: str) -> None:
        super().__init__(inner)
        self._session_id = session_id

    def _session(self, session_id: str | None) -> str | None:
        return self._session_id


async def reusing_earlier_saves(
    service: BaseArtifactService | None,
    store: BaseSessionService,
    ref: StepRef,
    record_ids: Sequence[str | None],
) -> BaseArtifactService | None:
    """For a retried step whose earlier attempt recorded its events (`record_ids`; its
    worker died before Temporal heard of it): a save that repeats one of their
    artifact_delta entries (same filename, same content and metadata, still the latest
    version) returns that version instead of saving another. A deterministic step's
    retry then records the very same events, and the store holds no extra version."""
    wanted = {record_id for record_id in record_ids if record_id}
    if service is None or not wanted or not retried():
        return service
    scope = ref.session
    recorded = await store.list_events(
        app_name=scope.app_name,
        user_id=scope.user_id,
        session_id=scope.session_id,
        invocation_id=ref.invocation_id,
    )
    saved: dict[str, int] = {}
    for _, event in recorded:
        if event.id in wanted:
            saved.update(event.actions.artifact_delta)
    return _ReusingEarlier(service, saved) if saved else service


class _ReusingEarlier(_Delegating):
    """Saves as `inner`'s, except those the earlier attempt made (once each)."""

    def __init__(self, inner: BaseArtifactService, earlier: dict[str, int]) -> None:
        super().__init__(inner)
        self._earlier = earlier

    async def save_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        artifact: types.Part | dict[str, Any],
        session_id: str | None = None,
        custom_metadata: dict[str, Any] | None = None,
    ) -> int:
        inner = self._service()
        version = self._earlier.pop(filename, None)
        if version is not None:
            latest = await inner.get_artifact_version(
                app_name=app_name, user_id=user_id, session_id=session_id, filename=filename
            )
            if (
                latest is not None
                and latest.version == version
                and latest.custom_metadata == (custom_metadata or {})
                and ensure_part(artifact)
                == await inner.load_artifact(
                    app_name=app_name,
                    user_id=user_id,
                    session_id=session_id,
                    filename=filename,
                    version=version,
                )
            ):
                return version
        return await inner.save_artifact(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            filename=filename,
            artifact=artifact,
            custom_metadata=custom_metadata,
        )
