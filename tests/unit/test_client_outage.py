"""A client stream waits through an outage of Temporal and never calls it a failure.

Runs on: test process only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from temporalio.service import RPCError, RPCStatusCode

from adk.sessions import SqliteSessionService
from client import AgentClient, TemporalUnreachableError, _client
from client._client import Invocation
from workflows.contracts import InvocationResult, SessionRef


class _FlakyHandle:
    """A workflow handle whose result() cannot reach the server `failures` times."""

    id = "adk:a:u:s"
    result_run_id = None

    def __init__(self, failures: int, error: RPCError | None = None) -> None:
        self.failures = failures
        self.calls = 0
        self.error = error or RPCError(
            "tcp connect error: Connection refused", RPCStatusCode.UNAVAILABLE, b""
        )

    async def result(self) -> InvocationResult:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return InvocationResult.model_construct()


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_client, "_RETRY_FIRST", 0.01)
    monkeypatch.setattr(_client, "_LOST_AFTER", 0.02)


def _setup(tmp_path: Path, handle: Any, give_up_after: float = 60.0) -> tuple[AgentClient, Any]:
    store = SqliteSessionService(tmp_path / "sessions.db")
    client = AgentClient(None, store, give_up_after=give_up_after)  # type: ignore[arg-type]
    ref = SessionRef(app_name="a", user_id="u", session_id="s")
    return client, Invocation(invocation_id="inv", session=ref, handle=handle)


async def test_the_stream_waits_through_an_outage_and_tells_once(tmp_path: Path) -> None:
    handle = _FlakyHandle(failures=6)
    client, invocation = _setup(tmp_path, handle)
    told: list[Invocation] = []
    events = [e async for e in client.events(invocation, on_contact_lost=told.append)]
    assert events == [] and handle.calls == 7  # ended normally, after asking again
    assert told == [invocation]  # one line, not one per retry


async def test_after_the_bound_it_says_unreachable_never_failed(tmp_path: Path) -> None:
    client, invocation = _setup(tmp_path, _FlakyHandle(failures=10**6), give_up_after=0.1)
    with pytest.raises(TemporalUnreachableError) as raised:
        async for _ in client.events(invocation, on_contact_lost=lambda _: None):
            pass
    assert "may still be running" in str(raised.value) and "failed" not in str(raised.value)
    assert raised.value.workflow_id == "adk:a:u:s"


async def test_a_refusal_is_not_retried(tmp_path: Path) -> None:
    handle = _FlakyHandle(failures=1, error=RPCError("no such", RPCStatusCode.NOT_FOUND, b""))
    client, invocation = _setup(tmp_path, handle)
    with pytest.raises(RPCError):
        async for _ in client.events(invocation):
            pass
    assert handle.calls == 1


def test_the_reattach_command_names_the_server_and_store_it_was_given() -> None:
    import argparse

    from client._cli import _follow_command

    args = argparse.Namespace(
        address="localhost:17433", namespace="default", db="/tmp/s.db", app="weather", user="ada"
    )
    assert _follow_command(args, "s1") == (
        "python -m client --address localhost:17433 --db /tmp/s.db follow --app weather"
        " --user ada s1"
    )


def test_an_attached_invocation_links_the_web_ui_by_workflow_id() -> None:
    invocation = Invocation(
        invocation_id="inv",
        session=SessionRef(app_name="a", user_id="u", session_id="s"),
        handle=_FlakyHandle(0),  # type: ignore[arg-type]  # no run id, as attach gives
    )
    url = invocation.web_ui_url("http://localhost:8233", "default")
    assert url.endswith("/workflows?query=WorkflowId%3D%22adk%3Aa%3Au%3As%22")
    assert "None" not in url
