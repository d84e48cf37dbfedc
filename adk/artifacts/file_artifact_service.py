"""FileArtifactService: artifacts in a folder (google.adk 2.13's layout), for one host and tests.

Runs on: activity side (the worker's tools, callbacks and request processors).
Every worker that runs an app's invocations must see the same folder: one host,
or a volume they all mount. Blocking file I/O runs in a thread.

Layout (the same as google-adk's, so a folder moves between the two):

    root/apps/{app}/users/{user}/sessions/{session}/artifacts/{path}/versions/{n}/
        {name}            the payload (bytes, or UTF-8 text)
        metadata.json     FileArtifactVersion
    root/apps/{app}/users/{user}/artifacts/{path}/...   user-scoped (`user:` names)

A save writes `versions/.{n}.pending/` and renames it to `versions/{n}/`, so a
reader never sees half a version; a save killed midway leaves only the pending
folder, which is never read (its number stays taken).
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from google.genai import types
from pydantic import ConfigDict, Field, ValidationError, alias_generators

from ..errors.input_validation_error import InputValidationError
from ..platform import time as platform_time
from . import artifact_util
from .base_artifact_service import ArtifactVersion, BaseArtifactService, ensure_part

logger = logging.getLogger("google_adk." + __name__)

_USER_PREFIX = "user:"
_METADATA = "metadata.json"
_VERSIONS = "versions"


def _file_mode_from_umask() -> int:
    """The mode `open()` gives a new file (read once: setting the umask is process-wide)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


_FILE_MODE = _file_mode_from_umask()
"""metadata.json gets the payload's mode (mkstemp would leave it 0600)."""


class FileArtifactVersion(ArtifactVersion):
    """An ArtifactVersion as metadata.json stores it."""

    model_config = ConfigDict(alias_generator=alias_generators.to_camel, populate_by_name=True)

    file_name: str = Field(description="Original filename supplied by the caller.")
    display_name: str | None = Field(
        default=None,
        description="User-facing filename from inline_data.display_name when persisted.",
    )


class FileArtifactService(BaseArtifactService):
    """Artifacts under `root_dir` (created if missing)."""

    def __init__(self, root_dir: Path | str) -> None:
        self.root_dir = Path(root_dir).expanduser().resolve()
        self.root_dir.mkdir(parents=True, exist_ok=True)

    # ── where things are ────────────────────────────────────────────────────

    def _base_root(self, app_name: str, user_id: str) -> Path:
        artifact_util.validate_path_segment(app_name, "app_name")
        artifact_util.validate_path_segment(user_id, "user_id")
        return self.root_dir / "apps" / app_name / "users" / user_id

    def _scope_root(self, base_root: Path, session_id: str | None, filename: str) -> Path:
        if session_id is None or filename.startswith(_USER_PREFIX):
            return base_root / "artifacts"
        return _session_dir(base_root, session_id)

    def _artifact_dir(
        self, app_name: str, user_id: str, session_id: str | None, filename: str
    ) -> tuple[Path, Path]:
        """The artifact's folder and its path under the scope root."""
        scope = self._scope_root(self._base_root(app_name, user_id), session_id, filename)
        return _scoped_path(scope, filename)

    # ── the interface ───────────────────────────────────────────────────────

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
        """Save a new version. Filenames may nest (`images/a.png`) or be user-scoped
        (`user:notes.txt`); rooted names, traversal, a final `metadata.json` or a
        `versions` component raise InputValidationError (a ValueError)."""
        return await asyncio.to_thread(
            self._save, app_name, user_id, filename, artifact, session_id, custom_metadata
        )

    def _save(
        self,
        app_name: str,
        user_id: str,
        filename: str,
        artifact: types.Part | dict[str, Any],
        session_id: str | None,
        custom_metadata: dict[str, Any] | None,
    ) -> int:
        part = ensure_part(artifact)
        artifact_dir, relative = self._artifact_dir(app_name, user_id, session_id, filename)
        _check_not_reserved(filename, artifact_dir, relative)
        artifact_dir.mkdir(parents=True, exist_ok=True)
        version, staging, final = _reserve_version(artifact_dir)
        try:  # a version is published whole or not at all
            payload = staging / artifact_dir.name
            display_name = None
            if part.inline_data:
                if part.inline_data.data is None:
                    raise InputValidationError("Artifact inline_data must contain data.")
                payload.write_bytes(part.inline_data.data)
                mime_type: str | None = part.inline_data.mime_type or "application/octet-stream"
                display_name = part.inline_data.display_name
            elif part.text is not None:
                payload.write_text(part.text, encoding="utf-8")
                mime_type = None
            else:
                raise InputValidationError("Artifact must have either inline_data or text content.")
            metadata = FileArtifactVersion(
                file_name=filename,
                mime_type=mime_type,
                canonical_uri=_canonical_uri(artifact_dir, version),
                version=version,
                display_name=display_name,
                custom_metadata=dict(custom_metadata or {}),
            )
            _write_metadata(staging / _METADATA, metadata)
            os.replace(staging, final)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        logger.debug("Saved artifact %s version %d to %s", filename, version, final)
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
        return await asyncio.to_thread(self._load, app_name, user_id, filename, session_id, version)

    def _load(
        self,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None,
        version: int | None,
    ) -> types.Part | None:
        artifact_dir, _ = self._artifact_dir(app_name, user_id, session_id, filename)
        chosen = _pick_version(_versions_on_disk(artifact_dir), version)
        if chosen is None:
            return None
        metadata = _read_metadata(_metadata_path(artifact_dir, chosen))
        # the payload's place comes from the layout only, never from metadata.json
        # (a file in the tree: trusting its URI would allow reading any file)
        payload = _versions_dir(artifact_dir) / str(chosen) / artifact_dir.name
        if metadata and metadata.mime_type:
            data = _read(payload, Path.read_bytes)
            if data is None:
                logger.warning("Binary artifact %s missing at %s", filename, payload)
                return None
            part = types.Part(
                inline_data=types.Blob(
                    mime_type=metadata.mime_type, data=data, display_name=metadata.display_name
                )
            )
            return None if artifact_util._is_rewind_tombstone(part) else part
        text = _read(payload, lambda p: p.read_text(encoding="utf-8"))
        if text is None:
            logger.warning("Text artifact %s missing at %s", filename, payload)
            return None
        return types.Part(text=text)

    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> list[str]:
        """The session's and the user's filenames. One saved with `session_id=None`
        is listed by the name it was saved with (loading it from a session needs
        the `user:` prefix)."""
        return await asyncio.to_thread(self._keys, app_name, user_id, session_id)

    def _keys(self, app_name: str, user_id: str, session_id: str | None) -> list[str]:
        base_root = self._base_root(app_name, user_id)
        names: set[str] = set()
        scopes = [(base_root / "artifacts", _USER_PREFIX)]
        if session_id is not None:
            scopes.insert(0, (_session_dir(base_root, session_id), ""))
        for root, prefix in scopes:
            for artifact_dir in _artifact_dirs(root):
                metadata = _latest_metadata(artifact_dir)
                if metadata and metadata.file_name:
                    names.add(metadata.file_name)
                else:
                    names.add(prefix + artifact_dir.relative_to(root).as_posix())
        return sorted(names)

    async def delete_artifact(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> None:
        await asyncio.to_thread(self._delete, app_name, user_id, filename, session_id)

    def _delete(self, app_name: str, user_id: str, filename: str, session_id: str | None) -> None:
        artifact_dir, _ = self._artifact_dir(app_name, user_id, session_id, filename)
        versions = _versions_dir(artifact_dir)
        if not versions.exists():
            return
        # only this artifact's versions: its folder may also hold a nested artifact
        shutil.rmtree(versions)
        scope = self._scope_root(self._base_root(app_name, user_id), session_id, filename)
        _prune_empty(artifact_dir, scope)

    async def list_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[int]:
        def versions() -> list[int]:
            artifact_dir, _ = self._artifact_dir(app_name, user_id, session_id, filename)
            return _versions_on_disk(artifact_dir)

        return await asyncio.to_thread(versions)

    async def list_artifact_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[ArtifactVersion]:
        def listed() -> list[ArtifactVersion]:
            artifact_dir, _ = self._artifact_dir(app_name, user_id, session_id, filename)
            return [_version_info(artifact_dir, v) for v in _versions_on_disk(artifact_dir)]

        return await asyncio.to_thread(listed)

    async def get_artifact_version(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
    ) -> ArtifactVersion | None:
        def one() -> ArtifactVersion | None:
            artifact_dir, _ = self._artifact_dir(app_name, user_id, session_id, filename)
            chosen = _pick_version(_versions_on_disk(artifact_dir), version)
            return None if chosen is None else _version_info(artifact_dir, chosen)

        return await asyncio.to_thread(one)


# ── paths ───────────────────────────────────────────────────────────────────


def _session_dir(base_root: Path, session_id: str) -> Path:
    artifact_util.validate_path_segment(session_id, "session_id")
    return base_root / "sessions" / session_id / "artifacts"


def _scoped_path(scope_root: Path, filename: str) -> tuple[Path, Path]:
    """The artifact folder for `filename` under `scope_root`; rooted, drive-qualified or
    traversing names are refused, even ones that would land back inside."""
    name = filename.removeprefix(_USER_PREFIX).strip()
    if artifact_util._is_drive_qualified(name) or PureWindowsPath(name).root:
        raise InputValidationError(
            f"Rooted or drive-qualified artifact filename {filename!r} is not permitted;"
            " provide a path relative to the storage scope."
        )
    if ".." in PurePosixPath(name).parts or ".." in PureWindowsPath(name).parts:
        raise InputValidationError(
            f"Artifact filename {filename!r} must not contain parent traversal."
        )
    root = scope_root.resolve(strict=False)
    posix = PureWindowsPath(name).as_posix() if "\\" in name else name
    candidate = (root / Path(posix)).resolve(strict=False)
    try:
        relative = candidate.relative_to(root)
    except ValueError as error:  # a symlink out of the tree
        raise InputValidationError(
            f"Artifact filename {filename!r} escapes storage directory {root}"
        ) from error
    if relative == Path("."):
        relative = Path("artifact")
        candidate = root / relative
    return candidate, relative


def _check_not_reserved(filename: str, artifact_dir: Path, relative: Path) -> None:
    """Names the layout itself uses (checked on save only: an artifact stored under one
    before stays readable and deletable). Caseless, trailing dots and spaces dropped,
    as case-insensitive file systems and Win32 compare them."""
    if artifact_dir.name.rstrip(" .").casefold() == _METADATA:
        raise InputValidationError(
            f"Artifact filename {filename!r} is reserved: an artifact may not be named"
            f" {_METADATA!r} (in any casing) because its payload is stored under the"
            " artifact's own name and would overwrite the metadata document."
        )
    if any(part.rstrip(" .").casefold() == _VERSIONS for part in relative.parts):
        raise InputValidationError(
            f"Artifact filename {filename!r} is reserved: an artifact path may not contain a"
            f" {_VERSIONS!r} component (in any casing) because that directory stores"
            " artifact versions."
        )


def _versions_dir(artifact_dir: Path) -> Path:
    return artifact_dir / _VERSIONS


def _metadata_path(artifact_dir: Path, version: int) -> Path:
    return _versions_dir(artifact_dir) / str(version) / _METADATA


def _canonical_uri(artifact_dir: Path, version: int) -> str:
    return (_versions_dir(artifact_dir) / str(version) / artifact_dir.name).resolve().as_uri()


def _artifact_dirs(root: Path) -> list[Path]:
    """Every artifact folder under `root` (one may also be the parent of a nested one)."""
    found: list[Path] = []
    if not root.exists():
        return found
    for dirpath, dirnames, _ in os.walk(root):
        if _VERSIONS in dirnames:
            found.append(Path(dirpath))
            dirnames.remove(_VERSIONS)
    return found


def _versions_on_disk(artifact_dir: Path) -> list[int]:
    versions_dir = _versions_dir(artifact_dir)
    if not versions_dir.is_dir():
        return []
    versions = []
    for child in versions_dir.iterdir():
        if child.is_dir():
            try:
                versions.append(int(child.name))
            except ValueError:  # a pending save (".3.pending") or something else
                continue
    return sorted(versions)


def _pick_version(versions: list[int], version: int | None) -> int | None:
    if not versions:
        return None
    if version is None:
        return versions[-1]
    return version if version in versions else None


def _reserve_version(artifact_dir: Path) -> tuple[int, Path, Path]:
    """The next version number, taken by creating its pending folder (atomic, so two
    concurrent saves get different numbers); (number, pending folder, final folder)."""
    versions_dir = _versions_dir(artifact_dir)
    versions_dir.mkdir(parents=True, exist_ok=True)
    existing = _versions_on_disk(artifact_dir)
    version = existing[-1] + 1 if existing else 0
    while True:
        staging = versions_dir / f".{version}.pending"
        try:
            staging.mkdir()
        except FileExistsError:
            version += 1
            continue
        final = versions_dir / str(version)
        if not final.exists():
            return version, staging, final
        staging.rmdir()
        version += 1


def _prune_empty(leaf: Path, stop_at: Path) -> None:
    """Remove `leaf` and the parents it leaves empty, below `stop_at`."""
    current = leaf
    while current != stop_at and current.is_relative_to(stop_at):
        try:
            current.rmdir()  # only an empty folder
        except OSError:
            return
        current = current.parent


# ── files ───────────────────────────────────────────────────────────────────


def _read(path: Path, read: Any) -> Any:
    """`read(path)`, or None when it is missing or unreadable (no exists() first: a
    concurrent delete is then just "missing")."""
    try:
        return read(path)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        logger.warning("Unreadable artifact payload at %s: %s", path, error)
        return None


def _write_metadata(path: Path, metadata: FileArtifactVersion) -> None:
    """Serialized first (custom_metadata may not serialize), then written to a temporary
    file and renamed into place: never half a document."""
    serialized = metadata.model_dump_json(by_alias=True, exclude_none=True)
    fd, name = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    temporary = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(serialized)
        os.chmod(temporary, _FILE_MODE)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _read_metadata(path: Path) -> FileArtifactVersion | None:
    """metadata.json, or None when it is missing, unreadable or malformed."""
    raw = _read(path, lambda p: p.read_text(encoding="utf-8"))
    if raw is None:
        return None
    try:
        return FileArtifactVersion.model_validate_json(raw)
    except (ValidationError, ValueError) as error:
        logger.warning("Failed to parse metadata at %s: %s", path, error)
        return None


def _latest_metadata(artifact_dir: Path) -> FileArtifactVersion | None:
    versions = _versions_on_disk(artifact_dir)
    return _read_metadata(_metadata_path(artifact_dir, versions[-1])) if versions else None


def _version_info(artifact_dir: Path, version: int) -> ArtifactVersion:
    """The version's ArtifactVersion; its URI recomputed from the layout (a tampered
    metadata.json does not choose it)."""
    metadata = _read_metadata(_metadata_path(artifact_dir, version))
    return ArtifactVersion(
        version=version,
        canonical_uri=_canonical_uri(artifact_dir, version),
        custom_metadata=dict(metadata.custom_metadata) if metadata else {},
        mime_type=metadata.mime_type if metadata else None,
        create_time=metadata.create_time if metadata else platform_time.get_time(),
    )
