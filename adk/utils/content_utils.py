"""Helpers on `types.Content` (google.adk.utils.content_utils of google-adk 2.13).

Runs on: any side (pure).
"""

from __future__ import annotations

import json
from typing import Any

from google.genai import types
from pydantic import BaseModel

SKIP_THOUGHT_SIGNATURE_VALIDATOR: bytes = b"skip_thought_signature_validator"
"""A `Part.thought_signature` for a part the model never produced (a synthesized
call or turn): the Gemini backend accepts it instead of asking for a signature."""


def is_audio_part(part: types.Part) -> bool:
    """Whether the part holds audio (inline bytes or a file reference)."""
    inline = part.inline_data is not None and (part.inline_data.mime_type or "")
    if inline and inline.startswith("audio/"):
        return True
    referenced = part.file_data is not None and (part.file_data.mime_type or "")
    return bool(referenced and referenced.startswith("audio/"))


def filter_audio_parts(content: types.Content) -> types.Content | None:
    """The content without its audio parts; None when nothing else is left."""
    kept = [part for part in content.parts or [] if not is_audio_part(part)]
    return types.Content(role=content.role, parts=kept) if kept else None


def _is_adk_live_artifact_part(part: types.Part) -> bool:
    uri = (part.file_data.file_uri or "") if part.file_data is not None else ""
    return uri.startswith("artifact://") and "/_adk_live/" in uri


def _filter_media_parts(content: types.Content) -> types.Content | None:
    """The content without audio and without references to `_adk_live` artifacts
    (history replayed to a live connection); None when nothing is left."""
    kept = [
        part
        for part in content.parts or []
        if not is_audio_part(part) and not _is_adk_live_artifact_part(part)
    ]
    return types.Content(role=content.role, parts=kept) if kept else None


def extract_text_from_content(content: types.Content | None, splitter: str = "") -> str:
    """The content's non-thought text parts joined by `splitter` ('' for none)."""
    if content is None:
        return ""
    return splitter.join(
        part.text for part in content.parts or [] if part.text and not part.thought
    )


def to_user_content(value: Any) -> types.Content:
    """Any value as a user Content: a Content re-authored (its parts shared), a string
    as is, a pydantic model as its JSON, a dict or list as JSON (non-ASCII kept),
    anything else as `str(value)`."""
    if isinstance(value, types.Content):
        return types.Content(role="user", parts=value.parts)
    if isinstance(value, str):
        text = value
    elif isinstance(value, BaseModel):
        text = value.model_dump_json()
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = str(value)
    return types.Content(role="user", parts=[types.Part(text=text)])
