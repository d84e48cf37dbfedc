"""InMemoryArtifactService: artifacts kept in the process (google.adk's, for tests and dev).

Runs on: activity side. Only the worker process that holds it sees them: use
it with the Runner's in-process worker (InMemoryRunner does), not with
several workers.
"""

from __future__ import annotations

import copy
import dataclasses
import logging
from typing import Any

from google.genai import types
from pydantic import BaseModel, Field

from ..errors.input_validation_error import InputValidationError
from . import artifact_util
from .base_artifact_service import ArtifactVersion, BaseArtifactService, ensure_part

logger = logging.getLogger("google_adk." + __name__)

_USER_PREFIX = "user:"
_SESSION_REQUIRED = "Session ID must be provided for session-scoped artifacts."


@dataclasses.dataclass
class _ArtifactEntry:
    """One stored version: its Part and its metadata."""

    data: types.Part
    artifact_version: ArtifactVersion


class InMemoryArtifactService(BaseArtifactService, BaseModel):
    """Artifacts in a dict: path -> versions (not for production)."""

    artifacts: dict[str, list[_ArtifactEntry]] = Field(default_factory=dict)

    def _file_has_user_namespace(self, filename: str) -> bool:
        return filename.startswith(_USER_PREFIX)

    def _artifact_path(
        self, app_name: str, user_id: str, filename: str, session_id: str | None
    ) -> str:
        artifact_util.validate_path_segment(app_name, "app_name")
        artifact_util.validate_path_segment(user_id, "user_id")
        if self._file_has_user_namespace(filename):
            return f"{app_name}/{user_id}/user/{filename}"
        if session_id is None:
            raise InputValidationError(_SESSION_REQUIRED)
        artifact_util.validate_path_segment(session_id, "session_id")
        return f"{app_name}/{user_id}/{session_id}/{filename}"

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
        user_scoped = self._file_has_user_namespace(filename)
        if not user_scoped:
            if session_id is None:
                raise InputValidationError(_SESSION_REQUIRED)
            artifact_util._validate_session_id_for_flat_storage(session_id)
        part = ensure_part(artifact).model_copy(deep=True)
        path = self._artifact_path(app_name, user_id, filename, session_id)
        version = len(self.artifacts.get(path, []))
        scope = f"apps/{app_name}/users/{user_id}"
        if not user_scoped:
            scope += f"/sessions/{session_id}"
        metadata = ArtifactVersion(
            version=version,
            canonical_uri=f"memory://{scope}/artifacts/{filename}/versions/{version}",
        )
        if custom_metadata:
            metadata.custom_metadata = copy.deepcopy(custom_metadata)
        metadata.mime_type = _mime_type(part, app_name, user_id, session_id)
        self.artifacts.setdefault(path, []).append(_ArtifactEntry(part, metadata))
        return version

    async def load_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
    ) -> types.Part | None:
        return await self._load(
            app_name,
            user_id,
            filename,
            session_id,
            version,
            artifact_util._MAX_ARTIFACT_REFERENCE_DEPTH,
        )

    async def _load(
        self,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None,
        version: int | None,
        remaining_depth: int,
    ) -> types.Part | None:
        entry = self._entry(app_name, user_id, filename, session_id, version)
        if entry is None:
            return None
        data = entry.data
        if artifact_util.is_artifact_ref(data):  # follow it, within this scope
            assert data.file_data is not None and data.file_data.file_uri is not None
            target = artifact_util.resolve_artifact_reference(
                file_uri=data.file_data.file_uri,
                app_name=app_name,
                user_id=user_id,
                session_id=session_id,
                remaining_depth=remaining_depth,
            )
            return await self._load(
                target.app_name,
                target.user_id,
                target.filename,
                target.session_id,
                target.version,
                remaining_depth - 1,
            )
        if data == types.Part() or artifact_util._is_rewind_tombstone(data):
            return None
        return data.model_copy(deep=True)

    def _entry(
        self,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None,
        version: int | None,
    ) -> _ArtifactEntry | None:
        entries = self.artifacts.get(self._artifact_path(app_name, user_id, filename, session_id))
        if not entries:
            return None
        if version is None:
            return entries[-1]
        return entries[version] if 0 <= version < len(entries) else None

    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> list[str]:
        artifact_util.validate_path_segment(app_name, "app_name")
        artifact_util.validate_path_segment(user_id, "user_id")
        if session_id is not None:
            artifact_util.validate_path_segment(session_id, "session_id")
        prefixes = [f"{app_name}/{user_id}/user/"]
        if session_id:
            prefixes.insert(0, f"{app_name}/{user_id}/{session_id}/")
        names = []
        for path in self.artifacts:
            prefix = next((p for p in prefixes if path.startswith(p)), None)
            if prefix is not None:
                names.append(path.removeprefix(prefix))
        return sorted(names)

    async def delete_artifact(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> None:
        self.artifacts.pop(self._artifact_path(app_name, user_id, filename, session_id), None)

    async def list_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[int]:
        path = self._artifact_path(app_name, user_id, filename, session_id)
        return list(range(len(self.artifacts.get(path) or [])))

    async def list_artifact_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[ArtifactVersion]:
        path = self._artifact_path(app_name, user_id, filename, session_id)
        return [e.artifact_version.model_copy(deep=True) for e in self.artifacts.get(path) or []]

    async def get_artifact_version(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
    ) -> ArtifactVersion | None:
        entry = self._entry(app_name, user_id, filename, session_id, version)
        return entry.artifact_version.model_copy(deep=True) if entry else None


def _mime_type(part: types.Part, app_name: str, user_id: str, session_id: str | None) -> str | None:
    """The version's MIME type; a reference's is unknown until it is loaded (it is
    checked here: well-formed and within the caller's scope)."""
    if part.inline_data is not None:
        return part.inline_data.mime_type
    if part.text is not None:
        return "text/plain"
    file_data = part.file_data
    if file_data is None:
        raise InputValidationError("Not supported artifact type.")
    if not artifact_util.is_artifact_ref(part):
        return file_data.mime_type
    parsed = artifact_util.parse_artifact_uri(file_data.file_uri or "")
    if not parsed:
        raise InputValidationError(f"Invalid artifact reference URI: {file_data.file_uri}")
    artifact_util.validate_artifact_reference_scope(
        app_name=app_name, user_id=user_id, session_id=session_id, parsed_uri=parsed
    )
    return None
