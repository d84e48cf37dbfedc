"""`python -m worker APP...`: run a worker serving ADK apps.

Runs on: process side.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import structlog
from sqlalchemy.exc import SQLAlchemyError
from temporalio.service import RPCError
from temporalio.worker import UnsandboxedWorkflowRunner

from adk.agents._tree import close_toolsets
from adk.apps.app import App
from adk.artifacts._location import artifact_service_at
from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.artifacts.file_artifact_service import FileArtifactService
from adk.memory import BaseMemoryService, DatabaseMemoryService, SqliteMemoryService
from adk.sessions._open import check as check_store
from adk.sessions._open import describe as describe_store
from adk.sessions._open import open_session_service
from workflows.names import DEFAULT_TASK_QUEUE, app_task_queue

from ._build import (
    INLINE_ENV,
    SHUTDOWN_LIMIT_SECONDS,
    SearchAttributesMissing,
    build_worker,
    connect,
    connect_config,
    ensure_search_attributes,
    env_flag,
    shut_down,
    workflow_runner,
)
from ._health import Health, start_health_server
from ._loader import AppLoadError, load_apps
from ._logging import configure_logging

log = structlog.get_logger("durable_adk.worker")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m worker", description="Run a durable-adk worker for ADK apps."
    )
    parser.add_argument(
        "apps", nargs="+", help="app folders (containing agent.py) or modules (pkg.app)"
    )
    parser.add_argument(
        "--address", default=None, help="Temporal frontend (default: TEMPORAL_ADDRESS, profile)"
    )
    parser.add_argument(
        "--namespace", default=None, help="namespace (default: TEMPORAL_NAMESPACE, profile)"
    )
    parser.add_argument(
        "--task-queue",
        default=os.environ.get("DURABLE_ADK_TASK_QUEUE") or None,
        help="one task queue for all the apps (default: each app its own, durable-adk.<app>)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="session store: a SQLite file, or a database URL such as"
        " postgresql+asyncpg://user:pass@host/db (default: $DURABLE_ADK_SESSION_DB, else"
        " $DURABLE_ADK_DATA_DIR/sessions.db)",
    )
    parser.add_argument(
        "--artifacts",
        default=None,
        help="artifact folder (a FileArtifactService), gs://BUCKET (a GcsArtifactService,"
        " needs the gcs extra), or 'none' (default: $DURABLE_ADK_ARTIFACTS_DIR, else"
        " $DURABLE_ADK_DATA_DIR/artifacts)",
    )
    parser.add_argument(
        "--memory",
        default=None,
        help="memory database: a file (a SqliteMemoryService, shared by the host's workers),"
        " a database URL such as postgresql+asyncpg://... (a DatabaseMemoryService, shared"
        " by every host), or 'none' (default: $DURABLE_ADK_MEMORY_DB, else"
        " $DURABLE_ADK_DATA_DIR/memory.db)",
    )
    parser.add_argument("--log-format", choices=["console", "json"], default=None)
    parser.add_argument(
        "--shutdown-grace",
        type=float,
        default=float(os.environ.get("DURABLE_ADK_SHUTDOWN_GRACE", "60")),
        help="seconds running activities may finish after SIGTERM (default 60)",
    )
    parser.add_argument("--log-level", default=os.environ.get("DURABLE_ADK_LOG_LEVEL", "INFO"))
    parser.add_argument(
        "--health-port",
        type=_port,
        default=os.environ.get("DURABLE_ADK_HEALTH_PORT") or None,
        help="serve GET /livez and /readyz on this port, for Kubernetes probes and compose"
        " health checks (default: $DURABLE_ADK_HEALTH_PORT, else no endpoint; 0: any free port)",
    )
    parser.add_argument(
        "--health-host",
        default=os.environ.get("DURABLE_ADK_HEALTH_HOST") or "0.0.0.0",
        help="the address the health endpoint listens on (default: $DURABLE_ADK_HEALTH_HOST,"
        " else 0.0.0.0, every interface: probes come from outside the pod)",
    )
    return parser.parse_args(argv)  # (a string default goes through `type` too)


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {value!r}")
    return port


async def serve(args: argparse.Namespace) -> int:
    try:
        apps = load_apps(args.apps)
    except AppLoadError as error:
        log.error("cannot load app", error=str(error))
        return 2
    try:  # configuration errors first, before any connection
        settings = connect_config(args.address, args.namespace)
        args.address, args.namespace = settings["target_host"], settings["namespace"]
        runner = workflow_runner()
        inline = env_flag(INLINE_ENV)
        store = open_session_service(args.db)
    except ValueError as error:
        log.error("bad configuration", error=str(error))
        return 2
    try:  # a database that is down or in another schema: said now, not at the first step
        await check_store(store)
    except (SQLAlchemyError, OSError, ValueError) as error:
        log.error("cannot use the session store", store=describe_store(store), error=str(error))
        return 2
    try:
        artifacts = artifact_service(args.artifacts)
    except Exception as error:  # a folder we cannot create, no GCS package or credentials
        log.error("bad configuration", error=f"artifacts: {error}")
        return 2
    try:
        memory = memory_service(args.memory)
    except ValueError as error:  # a folder, not a file; a URL without its driver
        log.error("bad configuration", error=f"memory: {error}")
        return 2
    if isinstance(memory, DatabaseMemoryService):
        try:  # a database that is down: said now, not at the first search
            await memory.prepare_tables()
        except (SQLAlchemyError, OSError, RuntimeError) as error:
            log.error("cannot use the memory database", memory=memory.db_url, error=str(error))
            return 2
    try:
        client = await connect(args.address, args.namespace)
        added = await ensure_search_attributes(client)
    except SearchAttributesMissing as error:
        log.error("search attributes missing", error=str(error))
        return 2
    except RuntimeError as error:
        log.error("cannot connect to Temporal", address=args.address, error=str(error))
        return 2
    except RPCError as error:  # an unknown namespace, a refused credential
        log.error(
            "Temporal refused the worker",
            address=args.address,
            namespace=args.namespace,
            error=str(error),
        )
        return 2
    if added:
        log.info("registered search attributes", names=added)
    queues: dict[str, dict[str, App]] = {}  # each queue the apps it serves
    for name, app in apps.items():
        queues.setdefault(args.task_queue or app_task_queue(name), {})[name] = app
    if not args.task_queue:  # invocations started before per-app queues still run there
        queues[DEFAULT_TASK_QUEUE] = dict(apps)
    failed: asyncio.Future[BaseException] = asyncio.get_running_loop().create_future()
    workers = [
        build_worker(
            client,
            apps=served,
            session_service=store,
            artifact_service=artifacts,
            memory_service=memory,
            task_queue=queue,
            workflow_runner=runner,
            inline_workflow_agents=inline,
            # on SIGTERM, running tool calls and model steps get this long to finish
            graceful_shutdown_timeout=timedelta(seconds=args.shutdown_grace),
            on_fatal_error=fatal_error_hook(failed),
        )
        for queue, served in queues.items()
    ]
    health = Health(workers, sorted(queues), client)
    server: asyncio.Server | None = None
    if args.health_port is not None:
        try:
            server = await start_health_server(health, args.health_host, args.health_port)
        except OSError as error:  # the port is taken, or no such address
            log.error(
                "cannot serve the health endpoint",
                host=args.health_host,
                port=args.health_port,
                error=str(error),
            )
            return 2
        log.info(
            "health endpoint",
            host=args.health_host,
            port=server.sockets[0].getsockname()[1],
            paths=["/livez", "/readyz"],
        )
    stop = asyncio.Event()

    def stopping() -> None:
        health.stopping()  # /readyz says so at once, while activities finish
        stop.set()

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping)
    log.info(
        "worker started",
        apps=sorted(apps),
        address=args.address,
        namespace=args.namespace,
        task_queues=sorted(queues),
        session_db=describe_store(store),
        artifacts=_describe(artifacts),
        memory=_describe_memory(memory),
        workflow_sandbox="off" if isinstance(runner, UnsandboxedWorkflowRunner) else "strict",
        inline_workflow_agents=inline,
    )

    async def run_all() -> None:
        await asyncio.gather(*(worker.run() for worker in workers))

    running = asyncio.create_task(run_all())
    try:
        return await _run_until_stopped(workers, running, stop, args.shutdown_grace, failed)
    finally:
        if server is not None:
            server.close()
        for app in apps.values():  # MCP sessions end cleanly (a stdio server's process too)
            await close_toolsets(app.root_agent)


def fatal_error_hook(
    failed: asyncio.Future[BaseException],
) -> Callable[[BaseException], Awaitable[None]]:
    """A worker's `on_fatal_error`: notes the first fatal error (Temporal Core failing a
    poller, e.g. a Rust panic), before the worker's own shutdown steps, which can hang."""

    async def on_fatal_error(error: BaseException) -> None:
        if not failed.done():
            failed.set_result(error)

    return on_fatal_error


async def _run_until_stopped(
    workers: list[Any],
    running: asyncio.Task[None],
    stop: asyncio.Event,
    grace: float,
    failed: asyncio.Future[BaseException],
) -> int:
    """Run until SIGTERM/SIGINT (0) or a worker's fatal error (1); the workers then shut
    down, bounded. A worker that failed serves nothing more, while the process would look
    alive: it exits, so an orchestrator restarts it (the invocations wait on Temporal)."""
    stopping = asyncio.ensure_future(stop.wait())
    ends: list[asyncio.Future[Any]] = [running, stopping, failed]
    await asyncio.wait(ends, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    error = _fatal_error(running, failed)
    if error is not None:
        log.error("worker failed; exiting", error=_describe_error(error), grace_seconds=grace)
    elif not running.done():
        log.info("worker stopping", grace_seconds=grace)
    finished = await asyncio.gather(*(shut_down(worker, grace) for worker in workers))
    if not all(finished):
        log.warning(
            "worker did not finish shutting down; exiting",
            seconds=grace + SHUTDOWN_LIMIT_SECONDS,
            reason="a known hang in Temporal Core's final shutdown step",
        )
    if not running.done():
        running.cancel()
    await asyncio.wait([running])
    run_error = None if running.cancelled() else running.exception()  # (retrieved)
    return 1 if error is not None or run_error is not None else 0


def _fatal_error(running: asyncio.Task[None], failed: asyncio.Future[BaseException]) -> Any:
    """The fatal error a worker reported, or its run's (a failed start reports none)."""
    if failed.done():
        return failed.result()
    if running.done() and not running.cancelled():
        return running.exception()
    return None


def _describe_error(error: BaseException) -> str:
    cause = error.__cause__
    text = f"{type(error).__name__}: {error}"
    return f"{text} (caused by {type(cause).__name__}: {cause})" if cause else text


def artifact_service(where: str | None) -> BaseArtifactService | None:
    """The worker's artifact service: a folder (created if missing), a GCS bucket, or none."""
    return artifact_service_at(where)


def memory_service(where: str | None) -> BaseMemoryService | None:
    """The worker's memory: a SQLite file every worker of the host can share, a
    database every host can share (a URL), or none."""
    where = where or os.environ.get("DURABLE_ADK_MEMORY_DB")
    if where == "none":
        return None
    if where and "://" in where and not where.startswith(("sqlite:", "sqlite+aiosqlite:")):
        return DatabaseMemoryService(where)  # a SQLite URL: the file store, FTS5 ranked
    path = where or str(Path(os.environ.get("DURABLE_ADK_DATA_DIR") or ".data") / "memory.db")
    return SqliteMemoryService(path)


def _describe_memory(memory: BaseMemoryService | None) -> str | None:
    if isinstance(memory, DatabaseMemoryService):
        return memory.db_url
    return str(memory.db_path) if isinstance(memory, SqliteMemoryService) else None


def _describe(service: BaseArtifactService | None) -> str | None:
    if isinstance(service, FileArtifactService):
        return str(service.root_dir)
    bucket = getattr(service, "bucket_name", None)
    return f"gs://{bucket}" if bucket else None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    configure_logging(args.log_format, args.log_level)
    return asyncio.run(serve(args))


if __name__ == "__main__":
    code = main()
    # Temporal's Rust core keeps threads that call into Python; an interpreter
    # finalizing around them aborts now and then (SIGABRT in PyGILState_Release,
    # temporalio/sdk-python#300) after a clean shutdown, and an orchestrator reads
    # that as a crash. The workers have stopped and the logs are written: leave
    # without finalizing, as the client does.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
