"""ToolConfirmation.from_response_dict as google-adk 2.13's: a confirmation's function
response as it is, or in the ADK web client's {"response": "<json>"} wrapping.

Runs on: test process only.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.tools.tool_confirmation import ToolConfirmation as RefConfirmation  # noqa: E402
from pydantic import ValidationError  # noqa: E402

from adk.tools.tool_confirmation import ToolConfirmation  # noqa: E402

ANSWERS: list[dict[str, Any]] = [
    {"confirmed": True},
    {"confirmed": False, "hint": "h", "payload": {"amount": 3}},
    {"response": json.dumps({"confirmed": True, "payload": [1, 2]})},
    {"response": json.dumps({"confirmed": False})},
    {},
]


@pytest.mark.parametrize("answer", ANSWERS, ids=[json.dumps(a)[:40] for a in ANSWERS])
def test_parsed_as_google_adk_parses_it(answer: dict[str, Any]) -> None:
    assert ToolConfirmation.from_response_dict(answer).model_dump() == (
        RefConfirmation.from_response_dict(answer).model_dump()
    )


def test_a_foreign_key_is_refused_by_both() -> None:
    for cls in (ToolConfirmation, RefConfirmation):
        with pytest.raises(ValidationError):
            cls.from_response_dict({"confirmed": True, "nope": 1})
