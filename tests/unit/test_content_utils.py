"""adk.utils.content_utils answers as google-adk 2.13's does, helper by helper.

Runs on: process side (pure; the reference is the test-only google-adk).
"""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types
from pydantic import BaseModel

reference = pytest.importorskip("google.adk.utils.content_utils")

from adk.utils import content_utils as ours  # noqa: E402


class _Model(BaseModel):
    a: int = 1
    name: str = "é"


PARTS = [
    types.Part(text="hi"),
    types.Part(text="thinking", thought=True),
    types.Part(text=""),
    types.Part.from_bytes(data=b"x", mime_type="audio/wav"),
    types.Part.from_bytes(data=b"x", mime_type="image/png"),
    types.Part(
        file_data=types.FileData(file_uri="artifact://a/u/s/_adk_live/x", mime_type="image/png")
    ),
    types.Part(file_data=types.FileData(file_uri="gs://bucket/x.mp3", mime_type="audio/mp3")),
    types.Part(file_data=types.FileData(file_uri="gs://bucket/x")),
]
CONTENTS = [
    types.Content(role="model", parts=PARTS),
    types.Content(role="user", parts=[]),
    types.Content(role="user", parts=[PARTS[3]]),
    types.Content(role="user", parts=[PARTS[5]]),
]


@pytest.mark.parametrize("part", PARTS)
def test_audio_parts_are_told_apart_alike(part: types.Part) -> None:
    assert ours.is_audio_part(part) == reference.is_audio_part(part)


@pytest.mark.parametrize("content", CONTENTS)
def test_filters_keep_the_same_parts(content: types.Content) -> None:
    assert ours.filter_audio_parts(content) == reference.filter_audio_parts(content)
    assert ours._filter_media_parts(content) == reference._filter_media_parts(content)


@pytest.mark.parametrize("content", [*CONTENTS, None])
@pytest.mark.parametrize("splitter", ["", " "])
def test_text_is_extracted_alike(content: types.Content | None, splitter: str) -> None:
    assert ours.extract_text_from_content(content, splitter) == (
        reference.extract_text_from_content(content, splitter)
    )


@pytest.mark.parametrize("value", [CONTENTS[0], "é", _Model(), {"é": [1]}, [1, "x"], 3.5, None])
def test_values_become_the_same_user_content(value: Any) -> None:
    assert ours.to_user_content(value) == reference.to_user_content(value)


def test_the_signature_placeholder_is_the_same_bytes() -> None:
    assert ours.SKIP_THOUGHT_SIGNATURE_VALIDATOR == reference.SKIP_THOUGHT_SIGNATURE_VALIDATOR
