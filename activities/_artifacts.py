"""The artifact service an activity's contexts get: the worker's, or, inside an
AgentTool's run, the same one scoped to the caller's session.

Runs on: activity side (worker process).

google-adk 2.13 runs an AgentTool's agent in a Runner of its own whose artifact
service forwards every call to the calling tool's context: the agent saves and
loads the caller's session's artifacts (whatever session and scope it names), and
what it saves also lands in the AgentTool response's artifact_delta (see
`finish_agent_tool`). Here the AgentTool's run keeps its own session, and its
SessionRef names the caller's (`artifact_session`, the top caller's when nested).
"""

from __future__ import annotations

from typing import Any

from google.genai import types

from adk.artifacts.base_artifact_service import ArtifactVersion, BaseArtifactService
from workflows.contracts import SessionRef


def artifact_service_for(
    service: BaseArtifactService | None, ref: SessionRef
) -> BaseArtifactService | None:
    """The service for activities on session `ref` (an AgentTool's: forwarding)."""
    if ref.artifact_session is None:
        return service
    return _CallerScoped(service, ref.artifact_session)


class _CallerScoped(BaseArtifactService):
    """Every call on the caller's session, whatever scope it names (2.13's forwarding)."""

    def __init__(self, inner: BaseArtifactService | None, session_id: str) -> None:
        self._inner = inner
        self._session_id = session_id

    def _service(self) -> BaseArtifactService:
        if self._inner is None:  # the caller's context has none: 2.13's error
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
            session_id=self._session_id,
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
            session_id=self._session_id,
            filename=filename,
            version=version,
        )

    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> list[str]:
        return await self._service().list_artifact_keys(
            app_name=app_name, user_id=user_id, session_id=self._session_id
        )

    async def delete_artifact(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> None:
        await self._service().delete_artifact(
            app_name=app_name, user_id=user_id, session_id=self._session_id, filename=filename
        )

    async def list_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[int]:
        return await self._service().list_versions(
            app_name=app_name, user_id=user_id, session_id=self._session_id, filename=filename
        )

    async def list_artifact_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[ArtifactVersion]:
        return await self._service().list_artifact_versions(
            app_name=app_name, user_id=user_id, session_id=self._session_id, filename=filename
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
            session_id=self._session_id,
            filename=filename,
            version=version,
        )
