"""Artifact names, scopes and `artifact://` references (google.adk 2.13's artifact_util).

Runs on: activity side (the artifact services use it; pure functions).

An artifact is keyed by app, user, session (none for a user-scoped one) and
filename. A saved Part may hold an `artifact://` URI in `file_data` instead of
content: a reference to another version, which loading follows (a bounded
number of hops, within the caller's app, user and session).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from google.genai import types

from ..errors.input_validation_error import InputValidationError


class ParsedArtifactUri(NamedTuple):
    """An `artifact://` URI, parsed."""

    app_name: str
    user_id: str
    session_id: str | None
    filename: str
    version: int


_MAX_ARTIFACT_REFERENCE_DEPTH = 5
"""How many `artifact://` references one load follows (a cycle fails clearly)."""

_DRIVE = re.compile(r"[A-Za-z]:")
_RESERVED_PATH_SEGMENTS = frozenset({"apps", "users", "sessions", "artifacts", "versions"})
# a segment: any text not followed by "/<reserved>/" (lazy, so the first such stop wins)
_SEGMENT = rf"(?:(?!/(?:{'|'.join(sorted(_RESERVED_PATH_SEGMENTS))})/).)+?"
_SESSION_URI = re.compile(
    rf"artifact://apps/({_SEGMENT})/users/({_SEGMENT})/sessions/({_SEGMENT})"
    r"/artifacts/(.+)/versions/(\d+)"
)
_USER_URI = re.compile(
    rf"artifact://apps/({_SEGMENT})/users/({_SEGMENT})/artifacts/(.+)/versions/(\d+)"
)


def parse_artifact_uri(uri: str) -> ParsedArtifactUri | None:
    """The parts of an `artifact://` URI; None when it is not one."""
    if not uri or not uri.startswith("artifact://"):
        return None
    if match := _SESSION_URI.fullmatch(uri):
        app, user, session, filename, version = match.groups()
        return ParsedArtifactUri(app, user, session, filename, int(version))
    if match := _USER_URI.fullmatch(uri):
        app, user, filename, version = match.groups()
        return ParsedArtifactUri(app, user, None, filename, int(version))
    return None


def get_artifact_uri(
    app_name: str, user_id: str, filename: str, version: int, session_id: str | None = None
) -> str:
    """The `artifact://` URI of one version (session-scoped when `session_id` is given)."""
    scope = f"apps/{app_name}/users/{user_id}"
    if session_id:
        scope += f"/sessions/{session_id}"
    return f"artifact://{scope}/artifacts/{filename}/versions/{version}"


def is_artifact_ref(artifact: types.Part) -> bool:
    """Whether the Part is a reference to another artifact (an `artifact://` file_data)."""
    uri = artifact.file_data.file_uri if artifact.file_data else None
    return bool(uri and uri.startswith("artifact://"))


_REWIND_TOMBSTONE = types.Part(
    inline_data=types.Blob(mime_type="application/octet-stream", data=b"")
)


def _new_rewind_tombstone() -> types.Part:
    """The Part google-adk's session rewind saves to mark an artifact absent."""
    return _REWIND_TOMBSTONE.model_copy(deep=True)


def _is_rewind_tombstone(artifact: types.Part) -> bool:
    """Whether the Part is that marker: every service loads such a version as absent."""
    return artifact == _REWIND_TOMBSTONE


def validate_artifact_reference_scope(
    *, app_name: str, user_id: str, session_id: str | None, parsed_uri: ParsedArtifactUri
) -> None:
    """A reference may not leave the caller's app and user (nor session, if it names one)."""
    if parsed_uri.app_name != app_name or parsed_uri.user_id != user_id:
        raise InputValidationError(
            "Artifact references must stay within the same app and user scope."
        )
    if parsed_uri.session_id is not None and parsed_uri.session_id != session_id:
        raise InputValidationError(
            "Session-scoped artifact references must stay within the same session scope."
        )


def resolve_artifact_reference(
    *,
    file_uri: str,
    app_name: str,
    user_id: str,
    session_id: str | None,
    remaining_depth: int,
) -> ParsedArtifactUri:
    """The target of a reference, checked: the hop budget, the URI's form, its scope."""
    if remaining_depth <= 0:
        raise InputValidationError(
            f"Exceeded maximum recursion depth resolving artifact reference: {file_uri}"
        )
    parsed = parse_artifact_uri(file_uri)
    if not parsed:
        raise InputValidationError(f"Invalid artifact reference URI: {file_uri}")
    validate_artifact_reference_scope(
        app_name=app_name, user_id=user_id, session_id=session_id, parsed_uri=parsed
    )
    return parsed


def _is_drive_qualified(value: str) -> bool:
    """Whether the value starts with a Windows drive letter (`C:`)."""
    return _DRIVE.match(value) is not None


def _validate_session_id_for_flat_storage(session_id: str) -> None:
    """validate_path_segment, and no leading `user` segment: flat stores (in memory,
    GCS) keep user-scoped artifacts under that segment."""
    validate_path_segment(session_id, "session_id")
    if session_id.replace("\\", "/").split("/")[0] == "user":
        raise InputValidationError(
            "session_id must not be or start with the reserved value 'user'."
        )


def validate_path_segment(value: str, field_name: str) -> None:
    """Reject an id that could change the path it is put in (traversal, roots, drives,
    null bytes, reserved segments); `field_name` names it in the error."""
    if not value or not value.strip():
        raise InputValidationError(f"{field_name} must not be empty.")
    if "\x00" in value:
        raise InputValidationError(f"{field_name} must not contain null bytes.")
    if value.startswith(("/", "\\")):
        raise InputValidationError(
            f"{field_name} {value!r} must not be an absolute path or start with a slash."
        )
    if _is_drive_qualified(value):
        raise InputValidationError(f"{field_name} {value!r} must not be drive-qualified.")
    segments = value.replace("\\", "/").split("/")
    if value in (".", "..") or ".." in segments:
        raise InputValidationError(f"{field_name} {value!r} must not contain traversal segments.")
    if len(segments) > 1 and not _RESERVED_PATH_SEGMENTS.isdisjoint(s.casefold() for s in segments):
        raise InputValidationError(
            f"{field_name} {value!r} must not contain reserved path segments."
        )
