"""`python -m worker APP...`: run a worker serving ADK apps.

Runs on: process side.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from datetime import timedelta

import structlog
from sqlalchemy.exc import SQLAlchemyError
from temporalio.worker import UnsandboxedWorkflowRunner

from adk.sessions._open import check as check_store
from adk.sessions._open import describe as describe_store
from adk.sessions._open import open_session_service
from workflows.names import DEFAULT_TASK_QUEUE

from ._build import (
    SHUTDOWN_LIMIT_SECONDS,
    SearchAttributesMissing,
    build_worker,
    connect,
    ensure_search_attributes,
    shut_down,
    workflow_runner,
)
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
    parser.add_argument("--address", default=os.environ.get("TEMPORAL_ADDRESS", "localhost:7233"))
    parser.add_argument("--namespace", default=os.environ.get("TEMPORAL_NAMESPACE", "default"))
    parser.add_argument(
        "--task-queue", default=os.environ.get("DURABLE_ADK_TASK_QUEUE", DEFAULT_TASK_QUEUE)
    )
    parser.add_argument(
        "--db",
        default=None,
        help="session store: a SQLite file, or a database URL such as"
        " postgresql+asyncpg://user:pass@host/db (default: $DURABLE_ADK_SESSION_DB, else"
        " $DURABLE_ADK_DATA_DIR/sessions.db)",
    )
    parser.add_argument("--log-format", choices=["console", "json"], default=None)
    parser.add_argument(
        "--shutdown-grace",
        type=float,
        default=float(os.environ.get("DURABLE_ADK_SHUTDOWN_GRACE", "60")),
        help="seconds running activities may finish after SIGTERM (default 60)",
    )
    parser.add_argument("--log-level", default=os.environ.get("DURABLE_ADK_LOG_LEVEL", "INFO"))
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace) -> int:
    try:
        apps = load_apps(args.apps)
    except AppLoadError as error:
        log.error("cannot load app", error=str(error))
        return 2
    try:  # configuration errors first, before any connection
        runner = workflow_runner()
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
        client = await connect(args.address, args.namespace)
        added = await ensure_search_attributes(client)
    except SearchAttributesMissing as error:
        log.error("search attributes missing", error=str(error))
        return 2
    except RuntimeError as error:
        log.error("cannot connect to Temporal", address=args.address, error=str(error))
        return 2
    if added:
        log.info("registered search attributes", names=added)
    worker = build_worker(
        client,
        apps=apps,
        session_service=store,
        task_queue=args.task_queue,
        workflow_runner=runner,
        # on SIGTERM, running tool calls and model steps get this long to finish
        graceful_shutdown_timeout=timedelta(seconds=args.shutdown_grace),
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    log.info(
        "worker started",
        apps=sorted(apps),
        address=args.address,
        namespace=args.namespace,
        task_queue=args.task_queue,
        session_db=describe_store(store),
        workflow_sandbox="off" if isinstance(runner, UnsandboxedWorkflowRunner) else "strict",
    )
    running = asyncio.create_task(worker.run())
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait([running, stopping], return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if not running.done():
        log.info("worker stopping", grace_seconds=args.shutdown_grace)
        if not await shut_down(worker, args.shutdown_grace):
            log.warning(
                "worker did not finish shutting down; exiting",
                seconds=args.shutdown_grace + SHUTDOWN_LIMIT_SECONDS,
                reason="a known hang in Temporal Core's final shutdown step",
            )
            running.cancel()
            return 0
    await running  # raises a fatal worker error
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    configure_logging(args.log_format, args.log_level)
    return asyncio.run(serve(args))


if __name__ == "__main__":
    sys.exit(main())
