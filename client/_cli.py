"""The CLI's commands: run, follow, sessions, session, artifacts.

Runs on: process side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import sqlite3
import sys
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from sqlalchemy.exc import SQLAlchemyError
from temporalio.api.enums.v1 import TaskQueueKind, TaskQueueType
from temporalio.api.taskqueue.v1 import TaskQueue
from temporalio.api.workflowservice.v1 import (
    DescribeTaskQueueRequest,
    DescribeTaskQueueResponse,
)
from temporalio.client import Client, WorkflowFailureError
from temporalio.service import RPCError, RPCStatusCode

from adk.artifacts._location import artifact_service_at
from adk.sessions import DatabaseSessionService, SqliteSessionService
from adk.sessions._open import check as check_store
from adk.sessions._open import describe as describe_store
from adk.sessions._open import open_session_service
from workflows.names import app_task_queue, invocation_workflow_id

from ._answers import STATUS_QUERY_SECONDS, AnswerRejectedError
from ._client import AgentClient, Invocation
from ._errors import (
    InvocationFailedError,
    InvocationInterruptedError,
    SessionBusyError,
    TemporalUnreachableError,
)
from ._exits import (
    EXIT_BUSY,
    EXIT_FAILED,
    EXIT_LOST,
    EXIT_NO_WORKER,
    EXIT_OK,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    EXIT_WAITING,
    CliError,
    connect_reason,
)
from ._render import event_lines, request_lines

if TYPE_CHECKING:
    from workflows.contracts import PendingRequest


def ui_base(address: str) -> str:
    """The Web UI of the server at `address`: TEMPORAL_UI_URL, else the dev server's.

    `temporal server start-dev` serves its UI on the frontend port + 1000.
    """
    if configured := os.environ.get("TEMPORAL_UI_URL"):
        return configured
    host, _, port = address.rpartition(":")
    if host.endswith(".tmprl.cloud"):
        return "https://cloud.temporal.io"
    if host and port.isdigit():
        return f"http://{host}:{int(port) + 1000}"
    return "http://localhost:8233"


def resolve_connection(args: argparse.Namespace) -> None:
    """Fill in --address and --namespace from the environment and the Temporal config
    file (temporalio.envconfig), as the worker does."""
    from worker import connect_config

    try:
        settings = connect_config(args.address, args.namespace)
    except ValueError as error:
        raise CliError(EXIT_USAGE, str(error)) from error
    args.address, args.namespace = settings["target_host"], settings["namespace"]


async def _temporal(args: argparse.Namespace) -> Client:
    from worker import connect

    try:
        return await connect(args.address, args.namespace)
    except RuntimeError as error:
        raise CliError(
            EXIT_UNREACHABLE,
            f"cannot reach Temporal at {args.address} ({connect_reason(error)});"
            " start a dev server with `make server`, or pass --address",
        ) from error


async def _client(temporal: Client, args: argparse.Namespace) -> AgentClient:
    """The AgentClient of a command: through an outage it says so once, in one line."""

    def lost(workflow_id: str) -> None:
        print(
            f"lost contact with Temporal at {args.address}; still trying (up to"
            f" {_GIVE_UP_AFTER / 60:.0f} min, Ctrl-C stops)",
            file=sys.stderr,
            flush=True,
        )

    return AgentClient(
        temporal,
        await _store(args),
        task_queue=args.task_queue,
        give_up_after=_GIVE_UP_AFTER,
        on_contact_lost=lost,
    )


_GIVE_UP_AFTER = 300.0
"""Seconds without contact with Temporal before a command gives up (exit 7)."""


async def _store(args: argparse.Namespace) -> SqliteSessionService | DatabaseSessionService:
    """The session store `--db` (else DURABLE_ADK_SESSION_DB) names, reached now: a
    file path or nothing is the SQLite store, a URL a DatabaseSessionService."""
    where = args.db or "(default)"
    try:
        store = open_session_service(args.db)
        where = describe_store(store)
        await check_store(store)
    except (sqlite3.Error, SQLAlchemyError, OSError, ValueError) as error:
        raise CliError(
            EXIT_UNREACHABLE, f"cannot use the session database {where}: {_one_line(error)}"
        ) from error
    return store


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _state_delta(text: str | None) -> dict | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise CliError(EXIT_USAGE, f"--state is not JSON: {error}") from error
    if not isinstance(value, dict):
        raise CliError(EXIT_USAGE, '--state must be a JSON object, e.g. \'{"user:name": "Ada"}\'')
    return value


async def _worker_polls(client: AgentClient, args: argparse.Namespace, grace: float = 5.0) -> bool:
    """Whether a worker polls the task queue, giving one just started `grace` seconds.

    A poller counts when it polled within two minutes: a long poll lasts about one.
    """
    request = DescribeTaskQueueRequest(
        namespace=args.namespace,
        task_queue=TaskQueue(
            name=client.queue_of(args.app), kind=TaskQueueKind.TASK_QUEUE_KIND_NORMAL
        ),
        task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    )
    deadline = time.monotonic() + grace

    async def describe(_: bool) -> DescribeTaskQueueResponse:
        return await client.temporal.workflow_service.describe_task_queue(request)

    while True:
        described = await client.keep_trying("(task queue)", describe)
        recent = time.time() - 120
        if any(p.last_access_time.seconds > recent for p in described.pollers):
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.5)


def _no_worker(args: argparse.Namespace) -> str:
    folder = Path("examples") / args.app
    where = str(folder) if folder.is_dir() else f"<the folder of app {args.app!r}>"
    return (
        f"no worker polls task queue {args.task_queue or app_task_queue(args.app)!r} at"
        f" {args.address} (no worker serves app {args.app!r});"
        f" start one: python -m worker {where}"
    )


async def cmd_run(args: argparse.Namespace) -> int:
    state_delta = _state_delta(args.state)
    session_id = args.session or f"s-{uuid.uuid4().hex[:12]}"
    try:  # ids that cannot name an invocation: bad input, said before connecting
        invocation_workflow_id(args.app, args.user, session_id)
    except ValueError as error:
        raise CliError(EXIT_USAGE, str(error)) from None
    client = await _client(await _temporal(args), args)
    if not await _worker_polls(client, args, grace=0.0 if args.wait else 5.0):
        if not args.wait:
            print(f"error: {_no_worker(args)} (or pass --wait to wait for one)", file=sys.stderr)
            return EXIT_NO_WORKER
        print(f"{_no_worker(args)}; waiting for one (--wait)", file=sys.stderr, flush=True)
    try:
        invocation = await client.start(
            app_name=args.app,
            user_id=args.user,
            session_id=session_id,
            new_message=args.message,
            state_delta=state_delta,
        )
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except SessionBusyError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BUSY
    except TemporalUnreachableError as error:  # the start may have reached the server
        print(f"error: {error} `{_follow_command(args, session_id)}`", file=sys.stderr)
        return EXIT_LOST
    print(f"session {session_id} · invocation {invocation.invocation_id}")
    print(f"workflow {invocation.workflow_id}")
    if (submitted := invocation.submitted) is not None:  # the app's busy policy took it
        how = "interrupts" if submitted.policy == "interrupt" else "queued behind"
        ahead = f", {submitted.position - 1} queued before it" if submitted.position > 1 else ""
        print(f"the session is busy: this message {how} invocation {submitted.behind}{ahead}")
    return await _stream(client, invocation, args, session_id)


def _follow_command(args: argparse.Namespace, session_id: str) -> str:
    """The command that reattaches to the session's running invocation."""
    options = "".join(
        f" --{name} {shlex.quote(value)}"
        for name, value, default in (
            ("address", args.address, "localhost:7233"),
            ("namespace", args.namespace, "default"),
            ("db", args.db, None),
        )
        if value and value != default
    )
    app, user, session = (shlex.quote(part) for part in (args.app, args.user, session_id))
    return f"python -m client{options} follow --app {app} --user {user} {session}"


async def _stream(
    client: AgentClient, invocation: Invocation, args: argparse.Namespace, session_id: str
) -> int:
    """Print the invocation's events until it ends (or waits, without --wait)."""
    url = invocation.web_ui_url(ui_base(args.address), args.namespace)
    final: str | None = None
    shown: set[str] = set()

    def lost(_: Invocation) -> None:
        print(
            f"lost contact with Temporal at {args.address}; still trying. The invocation goes"
            f" on: reattach with `{_follow_command(args, session_id)}`",
            file=sys.stderr,
            flush=True,
        )

    def show(pending: list[PendingRequest]) -> None:
        for request in pending:
            if request.id not in shown:
                shown.add(request.id)
                print("\n".join(request_lines(request, invocation.workflow_id)), flush=True)

    try:
        async for event in client.events(
            invocation, stop_when_waiting=not args.wait, on_pending=show, on_contact_lost=lost
        ):
            if event.author == "user":
                continue
            for line in event_lines(event):
                print(line, flush=True)
            if event.is_final_response() and event.content and event.content.parts:
                text = "".join(p.text or "" for p in event.content.parts if not p.thought)
                final = text or final
        if not args.wait and shown and (pending := await client._pending_of(invocation)):
            show(pending)
            print(
                f"\nwaiting for {len(pending)} answer(s); the invocation keeps waiting"
                f" durably. Web UI: {url}"
            )
            return EXIT_WAITING
    except TemporalUnreachableError as error:
        print(f"\n{error} `{_follow_command(args, session_id)}`", file=sys.stderr)
        return EXIT_LOST
    except InvocationInterruptedError as error:
        print(f"\ninterrupted: {error}", file=sys.stderr)
        return EXIT_FAILED
    except Exception as error:  # the invocation's own exception, rebuilt (see invocation_error)
        if not isinstance(error, InvocationFailedError):
            if not isinstance(error.__cause__, WorkflowFailureError):
                raise
            error = InvocationFailedError(f"{type(error).__name__}: {error}", None)
        print(f"\ninvocation failed: {error}", file=sys.stderr)
        print(f"Web UI: {url}", file=sys.stderr)
        return EXIT_FAILED
    print(f"\nfinal answer: {final if final is not None else '(none)'}")
    print(f"continue this conversation: --session {session_id}")
    print(f"Web UI: {url}")
    return EXIT_OK


async def cmd_follow(args: argparse.Namespace) -> int:
    client = await _client(await _temporal(args), args)
    try:
        invocation = await client.attach(
            app_name=args.app, user_id=args.user, session_id=args.session_id
        )
    except RPCError as error:
        if error.status != RPCStatusCode.NOT_FOUND or "amespace" in error.message:
            raise
        print(f"error: no invocation is running in session {args.session_id}", file=sys.stderr)
        return EXIT_USAGE
    print(f"session {args.session_id} · invocation {invocation.invocation_id}")
    return await _stream(client, invocation, args, args.session_id)


async def cmd_sessions(args: argparse.Namespace) -> int:
    async with _opened_store(args) as store:
        apps = [args.app] if args.app else await store.list_app_names()
        rows = 0
        for app in apps:
            for session in (await store.list_sessions(app_name=app, user_id=args.user)).sessions:
                keys = ", ".join(sorted(session.state)) or "-"
                print(f"{app}\t{session.user_id}\t{session.id}\tstate keys: {keys}")
                rows += 1
    if not rows:
        print("no sessions")
    return EXIT_OK


async def cmd_session(args: argparse.Namespace) -> int:
    async with _opened_store(args) as store:
        apps = [args.app] if args.app else await store.list_app_names()
        for app in apps:
            for listed in (await store.list_sessions(app_name=app, user_id=args.user)).sessions:
                if listed.id != args.session_id:
                    continue
                session = await store.get_session(
                    app_name=app, user_id=listed.user_id, session_id=listed.id
                )
                assert session is not None
                print(f"session {session.id} · app {app} · user {session.user_id}")
                print(f"state: {json.dumps(session.state, ensure_ascii=False, default=str)}")
                print(f"events: {len(session.events)}")
                for event in session.events:
                    for line in event_lines(event):
                        print(f"  {line}")
                return EXIT_OK
    print(f"error: no session {args.session_id!r}", file=sys.stderr)
    return EXIT_USAGE


async def cmd_copy_sessions(args: argparse.Namespace) -> int:
    """Copy a store's sessions into a database (README: Session store, existing data)."""
    from adk.sessions._open import is_url
    from adk.sessions.copy_sessions import copy_sessions

    if not is_url(args.target):
        raise CliError(EXIT_USAGE, f"the target must be a database URL, not {args.target!r}")
    source_args = argparse.Namespace(**{**vars(args), "db": args.source})
    target_args = argparse.Namespace(**{**vars(args), "db": args.target})
    async with _opened_store(source_args) as source, _opened_store(target_args) as target:
        assert isinstance(target, DatabaseSessionService)
        report = await copy_sessions(source, target)
    print(
        f"copied {len(report.copied)} sessions ({report.events} events)"
        f" from {describe_store(source)} to {describe_store(target)}"
        + (f"; {len(report.skipped)} already there, left alone" if report.skipped else "")
    )
    return EXIT_OK


@contextlib.asynccontextmanager
async def _opened_store(
    args: argparse.Namespace,
) -> AsyncIterator[SqliteSessionService | DatabaseSessionService]:
    """The store of a command that only reads it, closed when the command is done."""
    store = await _store(args)
    try:
        yield store
    finally:
        closing = store.close()
        if closing is not None:
            await closing


async def cmd_artifacts(args: argparse.Namespace) -> int:
    """A session's artifacts and their versions, or one version's content."""
    try:
        service = artifact_service_at(args.artifacts)
    except Exception as error:  # a bad location, no GCS package or credentials
        where = args.artifacts or "the default folder"
        raise CliError(EXIT_USAGE, f"cannot use the artifacts at {where}: {error}") from error
    if service is None:
        raise CliError(EXIT_USAGE, "no artifact service (--artifacts none)")
    scope = {"app_name": args.app, "user_id": args.user, "session_id": args.session_id}
    if args.name is None:
        names = await service.list_artifact_keys(**scope)
        for name in names:
            versions = await service.list_artifact_versions(**scope, filename=name)
            numbers = ", ".join(str(v.version) for v in versions)
            latest = versions[-1] if versions else None
            kind = (latest.mime_type or "text") if latest else "-"
            print(f"{name}\tversions {numbers}\t(latest: {kind})")
        if not names:
            print("no artifacts")
        return EXIT_OK
    part = await service.load_artifact(**scope, filename=args.name, version=args.version)
    if part is None:
        which = f" version {args.version}" if args.version is not None else ""
        raise CliError(EXIT_USAGE, f"no artifact {args.name!r}{which} in session {args.session_id}")
    data = part.inline_data.data if part.inline_data else None
    if args.out:
        Path(args.out).write_bytes(data if data is not None else (part.text or "").encode())
        return EXIT_OK
    if data is not None:
        mime = part.inline_data.mime_type if part.inline_data else None
        raise CliError(
            EXIT_USAGE, f"{args.name} holds {len(data)} bytes ({mime}): write them with --out FILE"
        )
    text = part.text if part.text is not None else part.model_dump_json(exclude_none=True)
    print(text, end="" if text.endswith("\n") else "\n")
    return EXIT_OK


async def cmd_pending(args: argparse.Namespace) -> int:
    client = await _client(await _temporal(args), args)
    listing = await client.pending_listing(args.app)
    if not listing.requests and not listing.unanswered:
        print("nothing is waiting")
    for workflow_id, request in listing.requests:
        print("\n".join(request_lines(request, workflow_id)))
    for workflow_id in listing.unanswered:
        print(
            f"{workflow_id} waits, but no worker answered for it within"
            f" {STATUS_QUERY_SECONDS:g} s: is a worker of its app running?",
            file=sys.stderr,
        )
    return EXIT_OK


async def cmd_answer(args: argparse.Namespace) -> int:
    client = await _client(await _temporal(args), args)
    try:
        payload = json.loads(args.json) if getattr(args, "json", None) else None
    except json.JSONDecodeError as error:
        print(f"error: not JSON: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.command == "approve":
            message = await client.approve(args.workflow_id, args.request_id, payload)
        elif args.command == "reject":
            message = await client.reject(args.workflow_id, args.request_id)
        elif args.command == "progress":
            message = await client.progress(args.workflow_id, args.request_id, payload)
        else:
            message = await client.respond(args.workflow_id, args.request_id, payload)
    except AnswerRejectedError as error:
        cause = error.__cause__
        if isinstance(cause, RPCError) and "namespace" in cause.message.lower():
            raise cause from None  # an unknown namespace, not a finished invocation
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except TemporalUnreachableError as error:
        print(
            f"error: {error} Whether the answer arrived: `python -m client pending`"
            " (sending it again is safe: an answered request refuses a second one).",
            file=sys.stderr,
        )
        return EXIT_LOST
    print(message)
    return EXIT_OK


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line, as every other error (exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"error: {message} (see `{self.prog} --help`)\n")

    def parse_args(self, *args: Any, **kwargs: Any) -> Any:
        """Parsed arguments, --address and --namespace filled in (resolve_connection)."""
        parsed = super().parse_args(*args, **kwargs)
        try:
            resolve_connection(parsed)
        except CliError as error:
            self.exit(EXIT_USAGE, f"error: {error}\n")
        return parsed


def parser() -> argparse.ArgumentParser:
    root = _Parser(prog="python -m client", description="durable-adk client")
    root.add_argument(
        "--address", default=None, help="Temporal frontend (default: TEMPORAL_ADDRESS, profile)"
    )
    root.add_argument(
        "--namespace", default=None, help="namespace (default: TEMPORAL_NAMESPACE, profile)"
    )
    root.add_argument(
        "--task-queue",
        default=os.environ.get("DURABLE_ADK_TASK_QUEUE") or None,
        help="the one task queue of all apps, if the workers use one (default: the app's own)",
    )
    root.add_argument(
        "--db",
        default=None,
        help="session store: a SQLite file or a database URL (default: $DURABLE_ADK_SESSION_DB,"
        " else the worker's default file)",
    )
    root.add_argument("--debug", action="store_true", help="print tracebacks of errors")
    commands = root.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="send a message and print the events as they happen")
    run.add_argument("message")
    run.add_argument("--app", required=True)
    run.add_argument("--user", default="user")
    run.add_argument("--session", default=None, help="session id (default: a new session)")
    run.add_argument("--state", default=None, help="JSON state delta sent with the message")
    run.add_argument(
        "--wait",
        action="store_true",
        help="keep waiting for answers the invocation asks for (default: exit 4), and for a"
        " worker when none polls the task queue (default: exit 6)",
    )
    run.set_defaults(handler=cmd_run)
    follow = commands.add_parser("follow", help="print a running invocation's events (reattach)")
    follow.add_argument("session_id")
    follow.add_argument("--app", required=True)
    follow.add_argument("--user", default="user")
    follow.add_argument("--wait", action="store_true", help="keep waiting for answers")
    follow.set_defaults(handler=cmd_follow)
    pending = commands.add_parser("pending", help="list everything waiting for an answer")
    pending.add_argument("--app", default=None)
    pending.set_defaults(handler=cmd_pending)
    for name, what, value in (
        ("approve", "approve a tool call waiting for confirmation", "--payload"),
        ("reject", "reject a tool call waiting for confirmation", None),
        ("respond", "give a long-running call its final result", "--result"),
        ("progress", "record an intermediate result of a long-running call", "--result"),
    ):
        command = commands.add_parser(name, help=what)
        command.add_argument("workflow_id")
        command.add_argument("request_id", help="the request id shown by `pending`")
        if value:
            command.add_argument(
                value, dest="json", required=value == "--result", help="JSON value"
            )
        command.set_defaults(handler=cmd_answer)
    sessions = commands.add_parser("sessions", help="list sessions")
    sessions.add_argument("--app", default=None)
    sessions.add_argument("--user", default=None)
    sessions.set_defaults(handler=cmd_sessions)
    session = commands.add_parser("session", help="show a session's events and state")
    session.add_argument("session_id")
    session.add_argument("--app", default=None)
    session.add_argument("--user", default=None)
    session.set_defaults(handler=cmd_session)
    copy = commands.add_parser(
        "copy-sessions",
        help="copy every session of a store (a SQLite file, or a URL) into a database (a URL)",
    )
    copy.add_argument("source", help="the store to read: a SQLite store's file, or a URL")
    copy.add_argument("target", help="the database to write: a URL (google-adk's tables)")
    copy.set_defaults(handler=cmd_copy_sessions)
    artifacts = commands.add_parser(
        "artifacts", help="list a session's artifacts, or print (--out: save) one version"
    )
    artifacts.add_argument("session_id")
    artifacts.add_argument("name", nargs="?", default=None, help="an artifact (`user:` names too)")
    artifacts.add_argument("--app", required=True)
    artifacts.add_argument("--user", default="user")
    artifacts.add_argument("--version", type=int, default=None, help="default: the latest")
    artifacts.add_argument("--out", default=None, help="write the content to this file")
    artifacts.add_argument(
        "--artifacts", default=None, help="the workers' artifact folder or gs://BUCKET (as theirs)"
    )
    artifacts.set_defaults(handler=cmd_artifacts)
    return root
