"""GcsArtifactService: artifacts in a Google Cloud Storage bucket (google-adk 2.13's).

Runs on: activity side. A bucket every worker reaches: the artifact store for
several hosts. Needs the `gcs` extra (google-cloud-storage); credentials come
from the worker's environment (Application Default Credentials), as for any
Google client. Blocking client calls run in a thread.

Blob names (google-adk's, so a bucket moves between the two):
`{app}/{user}/{session}/{filename}/{version}`, and `{app}/{user}/user/{filename}/{version}`
for `user:` names. A save creates its blob only if absent (`if_generation_match=0`), so
two hosts saving at once get different versions.
"""

from __future__ import annotations

import asyncio
import datetime
import importlib
import logging
import urllib.parse
from typing import Any, Literal, cast

from google.genai import types

from ..errors.input_validation_error import InputValidationError
from . import artifact_util
from .base_artifact_service import ArtifactVersion, BaseArtifactService, ensure_part

logger = logging.getLogger("google_adk." + __name__)

_DISPLAY_NAME = "adkDisplayName"
_IS_TEXT = "adkIsText"
_FILE_URI = "adkFileUri"
_FILE_MIME_TYPE = "adkFileMimeType"
_LEGACY_FILE_URI = "file_uri"
_INTERNAL = frozenset({_DISPLAY_NAME, _IS_TEXT, _FILE_URI, _FILE_MIME_TYPE, _LEGACY_FILE_URI})
"""Blob metadata keys of the service's own: never in custom_metadata."""
_MAX_SAVE_ATTEMPTS = 10
"""Versions tried when concurrent saves keep taking the next number."""
_SESSION_REQUIRED = "Session ID must be provided for session-scoped artifacts."


def _user_metadata(metadata: dict[str, Any] | None) -> dict[str, Any]:
    return {k: v for k, v in (metadata or {}).items() if k not in _INTERNAL}


def _file_uri(metadata: dict[str, Any] | None) -> str | None:
    if not metadata:
        return None
    return metadata.get(_FILE_URI) or metadata.get(_LEGACY_FILE_URI)


def _parse_version(blob_name: str, prefix: str) -> int | None:
    """The version a blob holds of the artifact at `prefix`; None for a blob of an
    artifact nested under it (`a/` also lists `a/b/3`) or a malformed name."""
    suffix = blob_name[len(prefix) :]
    if "/" in suffix:
        return None
    if not (suffix.isascii() and suffix.isdigit()):
        logger.warning("Skipping blob %s because it does not end with a version number.", blob_name)
        return None
    return int(suffix)


class GcsArtifactService(BaseArtifactService):
    """Artifacts in the bucket `bucket_name`; `kwargs` go to `storage.Client`."""

    def __init__(self, bucket_name: str, **kwargs: Any) -> None:
        try:  # (an optional extra: typed as Any)
            storage: Any = importlib.import_module("google.cloud.storage")
        except ImportError as error:
            raise ImportError(
                "GcsArtifactService needs google-cloud-storage: pip install 'durable-adk[gcs]'."
            ) from error
        self.bucket_name = bucket_name
        self.storage_client = storage.Client(**kwargs)
        self.bucket = self.storage_client.bucket(self.bucket_name)

    # ── the interface (each call in a thread) ───────────────────────────────

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
        return await asyncio.to_thread(
            self._save, app_name, user_id, session_id, filename, artifact, custom_metadata
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
        return await asyncio.to_thread(self._load, app_name, user_id, session_id, filename, version)

    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> list[str]:
        return await asyncio.to_thread(self._keys, app_name, user_id, session_id)

    async def delete_artifact(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> None:
        await asyncio.to_thread(self._delete, app_name, user_id, session_id, filename)

    async def list_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[int]:
        return await asyncio.to_thread(self._versions, app_name, user_id, session_id, filename)

    async def list_artifact_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[ArtifactVersion]:
        return await asyncio.to_thread(self._version_infos, app_name, user_id, session_id, filename)

    async def get_artifact_version(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
    ) -> ArtifactVersion | None:
        return await asyncio.to_thread(
            self._version_info, app_name, user_id, session_id, filename, version
        )

    async def get_authenticated_url(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
    ) -> str | None:
        """A browser URL for the version (its reader must be signed in to Google with
        read access to the object); None when absent or stored as a URI."""
        return await asyncio.to_thread(
            self._url, app_name, user_id, session_id, filename, version, None
        )

    async def get_signed_url(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
        expiration: datetime.datetime | datetime.timedelta | int | None = None,
        method: str = "GET",
        signing_version: Literal["v2", "v4"] | None = None,
        **kwargs: Any,
    ) -> str | None:
        """A time-limited signed URL (default: one hour); `kwargs` go to
        `Blob.generate_signed_url`. None when absent or stored as a URI."""
        options = dict(kwargs)
        if signing_version is not None:
            options["version"] = signing_version
        signing = {"expiration": expiration or datetime.timedelta(hours=1), "method": method}
        return await asyncio.to_thread(
            self._url, app_name, user_id, session_id, filename, version, {**signing, **options}
        )

    # ── blobs ───────────────────────────────────────────────────────────────

    def _prefix(self, app_name: str, user_id: str, filename: str, session_id: str | None) -> str:
        artifact_util.validate_path_segment(app_name, "app_name")
        artifact_util.validate_path_segment(user_id, "user_id")
        if filename.startswith("user:"):
            return f"{app_name}/{user_id}/user/{filename}"
        if session_id is None:
            raise InputValidationError(_SESSION_REQUIRED)
        artifact_util.validate_path_segment(session_id, "session_id")
        return f"{app_name}/{user_id}/{session_id}/{filename}"

    def _blob_name(
        self, app_name: str, user_id: str, filename: str, version: int, session_id: str | None
    ) -> str:
        return f"{self._prefix(app_name, user_id, filename, session_id)}/{version}"

    def _save(
        self,
        app_name: str,
        user_id: str,
        session_id: str | None,
        filename: str,
        artifact: types.Part | dict[str, Any],
        custom_metadata: dict[str, Any] | None,
    ) -> int:
        exceptions: Any = importlib.import_module("google.cloud.exceptions")
        if not filename.startswith("user:"):
            if session_id is None:
                raise InputValidationError(_SESSION_REQUIRED)
            artifact_util._validate_session_id_for_flat_storage(session_id)
        part = ensure_part(artifact)
        metadata = {k: str(v) for k, v in _user_metadata(custom_metadata).items()}
        data, content_type = self._payload(part, metadata, app_name, user_id, session_id)
        versions = self._versions(app_name, user_id, session_id, filename)
        version = max(versions) + 1 if versions else 0
        attempts_left = _MAX_SAVE_ATTEMPTS
        while True:  # listing reserves nothing: a create that fails means "taken"
            blob = self.bucket.blob(
                self._blob_name(app_name, user_id, filename, version, session_id)
            )
            if metadata:
                blob.metadata = metadata
            try:
                blob.upload_from_string(data=data, content_type=content_type, if_generation_match=0)
            except exceptions.PreconditionFailed:
                attempts_left -= 1
                if not attempts_left:
                    raise
                version += 1
                continue
            return version

    def _payload(
        self,
        part: types.Part,
        metadata: dict[str, str],
        app_name: str,
        user_id: str,
        session_id: str | None,
    ) -> tuple[str | bytes, str | None]:
        """What to upload and its content type; `metadata` gets the service's own keys."""
        if part.inline_data and part.inline_data.display_name:
            metadata[_DISPLAY_NAME] = part.inline_data.display_name
        elif part.inline_data is None and part.text is not None:
            metadata[_IS_TEXT] = "true"  # loaded back as a text Part
        if part.inline_data:
            if part.inline_data.data is None:
                raise InputValidationError("Artifact inline_data must contain data.")
            return part.inline_data.data, part.inline_data.mime_type
        if part.text is not None:
            return part.text, "text/plain"
        if not part.file_data:
            raise InputValidationError("Artifact must have either inline_data or text.")
        uri = part.file_data.file_uri
        if not uri:
            raise InputValidationError("Artifact file_data must have a file_uri.")
        if artifact_util.is_artifact_ref(part):
            parsed = artifact_util.parse_artifact_uri(uri)
            if not parsed:
                raise InputValidationError(f"Invalid artifact reference URI: {uri}")
            artifact_util.validate_artifact_reference_scope(
                app_name=app_name, user_id=user_id, session_id=session_id, parsed_uri=parsed
            )
        metadata[_FILE_URI] = uri  # a reference: nothing to upload
        if part.file_data.mime_type:
            metadata[_FILE_MIME_TYPE] = part.file_data.mime_type
        return b"", part.file_data.mime_type or None

    def _latest(
        self,
        app_name: str,
        user_id: str,
        session_id: str | None,
        filename: str,
        version: int | None,
    ) -> int | None:
        if version is not None:
            return version
        versions = self._versions(app_name, user_id, session_id, filename)
        return max(versions) if versions else None

    def _load(
        self,
        app_name: str,
        user_id: str,
        session_id: str | None,
        filename: str,
        version: int | None,
        depth: int = artifact_util._MAX_ARTIFACT_REFERENCE_DEPTH,
    ) -> types.Part | None:
        version = self._latest(app_name, user_id, session_id, filename, version)
        if version is None:
            return None
        blob = self.bucket.get_blob(
            self._blob_name(app_name, user_id, filename, version, session_id)
        )
        if not blob:
            return None
        uri = _file_uri(blob.metadata)
        if uri:
            if uri.startswith("artifact://"):
                target = artifact_util.resolve_artifact_reference(
                    file_uri=uri,
                    app_name=app_name,
                    user_id=user_id,
                    session_id=session_id,
                    remaining_depth=depth,
                )
                return self._load(
                    target.app_name,
                    target.user_id,
                    target.session_id,
                    target.filename,
                    target.version,
                    depth - 1,
                )
            mime_type = (blob.metadata or {}).get(_FILE_MIME_TYPE) or blob.content_type or None
            return types.Part(file_data=types.FileData(file_uri=uri, mime_type=mime_type))
        data = blob.download_as_bytes()
        metadata = blob.metadata or {}
        if metadata.get(_IS_TEXT) == "true":
            return types.Part(text=data.decode("utf-8"))
        if display_name := metadata.get(_DISPLAY_NAME):
            return types.Part(
                inline_data=types.Blob(
                    mime_type=blob.content_type, data=data, display_name=display_name
                )
            )
        part = types.Part.from_bytes(data=data, mime_type=blob.content_type)
        return None if artifact_util._is_rewind_tombstone(part) else part

    def _keys(self, app_name: str, user_id: str, session_id: str | None) -> list[str]:
        artifact_util.validate_path_segment(app_name, "app_name")
        artifact_util.validate_path_segment(user_id, "user_id")
        if session_id is not None:
            artifact_util.validate_path_segment(session_id, "session_id")
        prefixes = [f"{app_name}/{user_id}/user/"]
        if session_id:
            prefixes.insert(0, f"{app_name}/{user_id}/{session_id}/")
        names = set()
        for prefix in prefixes:
            for blob in self.storage_client.list_blobs(self.bucket, prefix=prefix):
                # prefix + filename (may hold "/") + "/" + version
                names.add("/".join(blob.name[len(prefix) :].split("/")[:-1]))
        return sorted(names)

    def _delete(self, app_name: str, user_id: str, session_id: str | None, filename: str) -> None:
        for version in self._versions(app_name, user_id, session_id, filename):
            self.bucket.blob(
                self._blob_name(app_name, user_id, filename, version, session_id)
            ).delete()

    def _versions(
        self, app_name: str, user_id: str, session_id: str | None, filename: str
    ) -> list[int]:
        prefix = self._prefix(app_name, user_id, filename, session_id) + "/"
        found = (
            _parse_version(blob.name, prefix)
            for blob in self.storage_client.list_blobs(self.bucket, prefix=prefix)
        )
        return sorted(v for v in found if v is not None)

    def _info(self, blob: Any, version: int) -> ArtifactVersion:
        return ArtifactVersion(
            version=version,
            canonical_uri=f"gs://{self.bucket_name}/{blob.name}",
            create_time=blob.time_created.timestamp(),
            mime_type=blob.content_type,
            custom_metadata=_user_metadata(blob.metadata),
        )

    def _version_info(
        self,
        app_name: str,
        user_id: str,
        session_id: str | None,
        filename: str,
        version: int | None,
    ) -> ArtifactVersion | None:
        version = self._latest(app_name, user_id, session_id, filename, version)
        if version is None:
            return None
        blob = self.bucket.get_blob(
            self._blob_name(app_name, user_id, filename, version, session_id)
        )
        return self._info(blob, version) if blob else None

    def _version_infos(
        self, app_name: str, user_id: str, session_id: str | None, filename: str
    ) -> list[ArtifactVersion]:
        prefix = self._prefix(app_name, user_id, filename, session_id) + "/"
        infos = []
        for blob in self.storage_client.list_blobs(self.bucket, prefix=prefix):
            version = _parse_version(blob.name, prefix)
            if version is not None:
                infos.append(self._info(blob, version))
        return sorted(infos, key=lambda info: info.version)

    def _url(
        self,
        app_name: str,
        user_id: str,
        session_id: str | None,
        filename: str,
        version: int | None,
        signing: dict[str, Any] | None,
        depth: int = artifact_util._MAX_ARTIFACT_REFERENCE_DEPTH,
    ) -> str | None:
        """The authenticated URL (`signing` None) or a signed one; references followed."""
        version = self._latest(app_name, user_id, session_id, filename, version)
        if version is None:
            return None
        name = self._blob_name(app_name, user_id, filename, version, session_id)
        blob = self.bucket.get_blob(name)
        if not blob:
            return None
        uri = _file_uri(blob.metadata)
        if uri:
            if not uri.startswith("artifact://"):
                return None
            target = artifact_util.resolve_artifact_reference(
                file_uri=uri,
                app_name=app_name,
                user_id=user_id,
                session_id=session_id,
                remaining_depth=depth,
            )
            return self._url(
                target.app_name,
                target.user_id,
                target.session_id,
                target.filename,
                target.version,
                signing,
                depth - 1,
            )
        if signing is None:
            quoted = urllib.parse.quote(name, safe="/")
            return f"https://storage.cloud.google.com/{self.bucket_name}/{quoted}"
        return cast(str, blob.generate_signed_url(**signing))
