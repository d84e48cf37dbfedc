"""A client stream waits through an outage of Temporal and never calls it a failure.

Runs on: test process only.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from temporalio.service import RPCError, RPCStatusCode

from adk.sessions import SqliteSessionService
from client import AgentClient, SessionBusyError, TemporalUnreachableError, _outage
from client._client import Invocation
from workflows import names
from workflows.contracts import InvocationResult, InvocationStatus, SessionRef


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

    async def result(self, follow_runs: bool = True) -> InvocationResult:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return InvocationResult(invocation_id="inv")

    async def fetch_history_events(self, **_: Any) -> AsyncIterator[Any]:
        """A history that cannot be reached either: the stream's follower keeps trying."""
        while True:
            raise self.error
            yield


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_outage, "RETRY_FIRST", 0.01)
    monkeypatch.setattr(_outage, "LOST_AFTER", 0.02)


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


# ── start, answers and queries wait through an outage too ─────────────────

_DOWN = RPCError("tcp connect error: Connection refused", RPCStatusCode.UNAVAILABLE, b"")


class _Server:
    """A fake Temporal client: one workflow id, whose starts and updates can lose
    their reply (applied on the server, UNAVAILABLE to the caller)."""

    def __init__(self, lose_replies: int = 0, down_for: int = 0) -> None:
        from workflows.converter import data_converter

        self.data_converter = data_converter
        self.lose_replies = lose_replies  # calls applied whose reply is lost
        self.down_for = down_for  # calls that never reach the server
        self.started: list[Any] = []  # InvocationInputs of the runs, in order
        self.update_ids: list[str] = []
        self.answered: dict[str, str] = {}  # update id -> outcome (Temporal dedupes by id)

    def _reach(self) -> bool:
        """Whether this call reaches the server (else UNAVAILABLE before it does)."""
        if self.down_for:
            self.down_for -= 1
            return False
        return True

    def _reply(self) -> None:
        if self.lose_replies:
            self.lose_replies -= 1
            raise _DOWN

    async def start_workflow(self, _workflow: str, arg: Any, **_: Any) -> Any:
        from temporalio.exceptions import WorkflowAlreadyStartedError

        if not self._reach():
            raise _DOWN
        if self.started:
            raise WorkflowAlreadyStartedError("adk:a:u:s", "AdkInvocation")
        self.started.append(arg)
        self._reply()
        return _Handle(self, run_id="run-1")

    def get_workflow_handle(self, _workflow_id: str, **kw: Any) -> Any:
        return _Handle(self, run_id=kw.get("run_id"))


class _Handle:
    id = "adk:a:u:s"

    def __init__(self, server: _Server, run_id: str | None) -> None:
        self.server = server
        self.result_run_id = run_id

    async def fetch_history_events(self, page_size: int) -> Any:
        from temporalio.api.history.v1 import HistoryEvent

        if not self.server._reach():
            raise _DOWN
        if not self.server.started:
            raise RPCError("workflow not found", RPCStatusCode.NOT_FOUND, b"")
        event = HistoryEvent()
        started = event.workflow_execution_started_event_attributes
        started.first_execution_run_id = "run-1"
        payloads = await self.server.data_converter.encode([self.server.started[-1]])
        started.input.payloads.extend(payloads)
        yield event

    async def execute_update(self, _update: str, answer: Any, *, id: str, **_: Any) -> str:
        from temporalio.client import WorkflowUpdateFailedError
        from temporalio.exceptions import ApplicationError

        if not self.server._reach():
            raise _DOWN
        if _update == names.UPDATE_SUBMIT:  # a message for the running invocation
            busy = ApplicationError(
                "Invocation e-1 of this session is running.", type="SessionBusy"
            )
            raise WorkflowUpdateFailedError(busy)  # (an app whose busy policy is `reject`)
        self.server.update_ids.append(id)
        if id not in self.server.answered:
            if self.server.answered:  # a different answer to the same request
                raise WorkflowUpdateFailedError(ApplicationError("already answered"))
            self.server.answered[id] = f"approved {answer.id}"
            self.server._reply()
        return self.server.answered[id]

    async def query(self, *_: Any, **__: Any) -> InvocationStatus:
        if not self.server._reach():
            raise _DOWN
        return InvocationStatus(invocation_id="e-1", status="waiting", pending=[])


def _client_of(server: _Server, tmp_path: Path, told: list[str]) -> AgentClient:
    store = SqliteSessionService(tmp_path / "sessions.db")
    return AgentClient(server, store, on_contact_lost=told.append)  # type: ignore[arg-type]


async def _start(client: AgentClient) -> Invocation:
    return await client.start(
        app_name="a", user_id="u", session_id="s", new_message="hi", expected_agent="root"
    )


async def test_a_start_whose_reply_was_lost_is_its_own_invocation_not_a_busy_session(
    tmp_path: Path,
) -> None:
    server = _Server(lose_replies=1)
    told: list[str] = []
    invocation = await _start(_client_of(server, tmp_path, told))
    assert len(server.started) == 1  # started once, not twice
    assert server.started[0].invocation_id == invocation.invocation_id
    assert invocation.run_id == "run-1"


async def test_a_start_that_never_reached_the_server_is_sent_again(tmp_path: Path) -> None:
    server = _Server(down_for=4)
    told: list[str] = []
    invocation = await _start(_client_of(server, tmp_path, told))
    assert [i.invocation_id for i in server.started] == [invocation.invocation_id]
    assert told == ["adk:a:u:s"]  # told once, in one line, not once per retry


async def test_after_a_lost_reply_another_invocation_still_means_busy(tmp_path: Path) -> None:
    server = _Server()
    await _start(_client_of(server, tmp_path, []))  # someone else's invocation runs
    server.down_for = 1  # our first attempt cannot reach it; the retry finds theirs
    with pytest.raises(SessionBusyError):
        await _start(_client_of(server, tmp_path, []))
    assert len(server.started) == 1


async def test_an_answer_whose_reply_was_lost_is_not_refused_by_itself(tmp_path: Path) -> None:
    server = _Server(lose_replies=1)
    outcome = await _client_of(server, tmp_path, []).approve("adk:a:u:s", "adk-1")
    assert outcome == "approved adk-1"  # the first attempt's outcome, not "already answered"
    assert len(server.update_ids) == 2 and len(set(server.update_ids)) == 1  # one update id


async def test_queries_wait_through_an_outage(tmp_path: Path) -> None:
    server = _Server(down_for=3)
    told: list[str] = []
    client = _client_of(server, tmp_path, told)
    attached = await client.attach(app_name="a", user_id="u", session_id="s")
    assert attached.invocation_id == "e-1" and told == ["adk:a:u:s"]


async def test_an_answer_gives_up_after_the_bound_and_the_cli_says_exit_7(tmp_path: Path) -> None:
    import argparse

    from client._exits import EXIT_LOST, explain

    client = _client_of(_Server(down_for=10**6), tmp_path, [])
    client.give_up_after = 0.05
    with pytest.raises(TemporalUnreachableError) as raised:
        await client.approve("adk:a:u:s", "adk-1")
    code, line = explain(raised.value, argparse.Namespace(address="x", db=None))
    assert code == EXIT_LOST and "\n" not in line and "may still be running" in line


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["run", "hi"],
        ["approve", "adk:a:u:s"],
        ["run", "--app", "a", "--x", "hi"],
    ],
)
def test_a_usage_mistake_is_one_line_with_exit_2(argv: list[str], capsys) -> None:
    # found by `python -m bench.chaos bad-inputs`: argparse printed its usage block
    from client._cli import parser

    with pytest.raises(SystemExit) as exited:
        parser().parse_args(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: "), err
