"""`python -m api [APPS_FOLDER] [--app NAME ...]`: serve the REST API (google-adk
2.13's `adk api_server` routes) over durable invocations.

Runs on: process side. A client of Temporal and of the session store the workers
use: start workers for the apps separately (`python -m worker APP_FOLDER`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m api", description="durable-adk's REST API (google-adk's api_server)"
    )
    parser.add_argument(
        "apps_folder",
        nargs="?",
        default=None,
        help="the folder whose app folders are served, as `adk api_server AGENTS_DIR`"
        " (default: the current directory)",
    )
    parser.add_argument(
        "--app",
        action="append",
        default=[],
        help="serve this app name (repeatable), instead of a folder's apps",
    )
    parser.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="default: 8000")
    parser.add_argument(
        "--address", default=None, help="Temporal frontend (default: TEMPORAL_ADDRESS, profile)"
    )
    parser.add_argument(
        "--namespace", default=None, help="namespace (default: TEMPORAL_NAMESPACE, profile)"
    )
    parser.add_argument(
        "--task-queue",
        default=os.environ.get("DURABLE_ADK_TASK_QUEUE") or None,
        help="the one task queue of all apps, if the workers use one (default: the app's own)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="session store, the workers': a SQLite file or a database URL (default:"
        " $DURABLE_ADK_SESSION_DB, else $DURABLE_ADK_DATA_DIR/sessions.db)",
    )
    parser.add_argument(
        "--artifacts",
        default=None,
        help="the workers' artifact folder or gs://BUCKET, served by the artifact routes;"
        " 'none' leaves them out (default: $DURABLE_ADK_ARTIFACTS_DIR, else"
        " $DURABLE_ADK_DATA_DIR/artifacts)",
    )
    parser.add_argument(
        "--allow-origins",
        action="append",
        default=[],
        help="an origin whose browser requests are served, with CORS headers (repeatable;"
        " `regex:PATTERN` for a pattern), as adk api_server --allow_origins; other origins"
        " but the server's own are refused",
    )
    parser.add_argument(
        "--web-ui-url",
        default=None,
        help="the Temporal Web UI the web page (/ui) links invocations to (default:"
        " TEMPORAL_UI_URL, else the dev server's: the frontend's port + 1000)",
    )
    parser.add_argument(
        "--give-up-after",
        type=float,
        default=30.0,
        help="seconds without contact with Temporal before a request answers 503 (default 30)",
    )
    args = parser.parse_args(argv)
    if args.apps_folder is not None and args.app:
        parser.error("give an apps folder or --app names, not both")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import uvicorn

        from adk.artifacts._location import artifact_service_at
        from adk.sessions._open import check, describe, open_session_service

        from . import AppCatalog, TemporalConnection, create_app
    except ImportError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        catalog = AppCatalog(folder=args.apps_folder, names=args.app)
        catalog.list()
        store = open_session_service(args.db)
        asyncio.run(check(store))
        artifacts = artifact_service_at(args.artifacts)
    except Exception as error:  # a missing folder, an unusable store or artifact location
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(
        f"serving {', '.join(catalog.list()) or '(no apps)'} · sessions {describe(store)}"
        f" · artifacts {'off' if artifacts is None else type(artifacts).__name__}",
        file=sys.stderr,
    )
    print(f"web page: http://{args.host}:{args.port}/ui", file=sys.stderr)
    app = create_app(
        catalog=catalog,
        session_service=store,
        temporal=TemporalConnection(address=args.address, namespace=args.namespace),
        artifact_service=artifacts,
        task_queue=args.task_queue,
        give_up_after=args.give_up_after,
        allow_origins=args.allow_origins,
        web_ui_url=args.web_ui_url,
    )
    try:
        uvicorn.run(app, host=args.host, port=args.port)
    finally:
        if (closing := store.close()) is not None:
            asyncio.run(closing)
    return 0


if __name__ == "__main__":
    from client._exits import leave

    leave(main())  # (not finalizing around Temporal's core threads, as the client)
