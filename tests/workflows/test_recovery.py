"""A tool result too large for Temporal fails the invocation at once, saying why,
after the tool ran once (before: the server refused the result and the tool re-ran).

Runs on: test process, against the session's local Temporal.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from adk import ActivityOptions, Agent
from adk.activity_options import PayloadTooLargeError
from adk.testing import MockModel

from .helpers import call, runner_for, user_text


@pytest.mark.parametrize("opted_into_retries", [False, True], ids=["default", "retries"])
async def test_a_result_too_large_fails_at_once_with_the_tool_and_size(
    temporal_env, opted_into_retries
):
    runs: list[str] = []

    def huge_report(topic: str) -> dict:
        """Returns 3 MB."""
        runs.append(topic)
        return {"topic": topic, "body": "x" * (3 * 1024 * 1024)}

    retry = ActivityOptions(maximum_attempts=3, initial_interval=timedelta(milliseconds=50))
    agent = Agent(
        name="a",
        model=MockModel.create([call("huge_report", topic="q3")]),
        tools=[huge_report],
        tool_activity_options=retry if opted_into_retries else None,
    )
    async with runner_for(temporal_env, agent) as runner:
        started = time.monotonic()
        with pytest.raises(PayloadTooLargeError) as caught:
            async for _ in runner.run_async(
                user_id="u1", session_id="s1", new_message=user_text("go")
            ):
                pass
        elapsed = time.monotonic() - started
    assert runs == ["q3"]
    message = str(caught.value)
    assert message.startswith("Tool huge_report of agent a returned 3.1 MB (3,145,"), message
    assert "payload limit of 2,097,152 bytes" in message
    assert elapsed < 10, elapsed  # no retry, no timeout waited out
