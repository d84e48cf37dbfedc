"""The FastAPI app: google-adk 2.13's api_server routes (apps, sessions, /run,
/run_sse), our human-in-the-loop routes, the artifact routes when the process
has an artifact service, and the web page (GET /ui).

Runs on: process side.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import pydantic_core
from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.events.event import Event
from adk.sessions.base_session_service import BaseSessionService
from adk.version import __version__
from client import AgentClient, TemporalUnreachableError

from . import _artifacts, _hitl, _page, _sessions
from ._catalog import AppCatalog, UnknownAppError
from ._models import RunAgentRequest
from ._origins import add_origin_rules
from ._page import WEB_UI_HEADER, WebUiLinks
from ._run import RunRefused, check_request, event_json, run_config_of, run_events, start_run
from ._temporal import TemporalConnection, TemporalUnavailable
from ._workers import WorkerCheck, no_worker

logger = logging.getLogger(__name__)


class Clients:
    """The AgentClient of the process, made once Temporal is reached."""

    def __init__(
        self,
        temporal: TemporalConnection,
        session_service: BaseSessionService,
        task_queue: str | None,
        give_up_after: float,
        worker_grace: float,
    ) -> None:
        self.temporal = temporal
        self.session_service = session_service
        self.task_queue = task_queue
        self.give_up_after = give_up_after
        self._client: AgentClient | None = None
        self.workers = WorkerCheck(worker_grace)

    async def get(self) -> AgentClient:
        if self._client is None:
            self._client = AgentClient(
                await self.temporal.get(),
                self.session_service,
                task_queue=self.task_queue,
                give_up_after=self.give_up_after,
                on_contact_lost=lambda what: logger.warning(
                    "lost contact with Temporal (%s); still trying", what
                ),
            )
        return self._client


def create_app(
    *,
    catalog: AppCatalog,
    session_service: BaseSessionService,
    temporal: TemporalConnection,
    artifact_service: BaseArtifactService | None = None,
    task_queue: str | None = None,
    give_up_after: float = 30.0,
    allow_origins: list[str] | None = None,
    worker_grace: float = 5.0,
    web_ui_url: str | None = None,
) -> FastAPI:
    """The REST API over `session_service` (the store the workers write) and Temporal.

    give_up_after: seconds without contact with Temporal before a request answers 503
    (the invocation itself goes on). artifact_service: serves google-adk's artifact
    routes (the workers' artifacts: the same folder or bucket); None leaves them out.
    The caller owns the services (and closes them). allow_origins: the origins (or
    `regex:` patterns) whose browser requests are served, with CORS headers; any
    other origin but the server's own is refused (403), as google-adk's api_server.
    worker_grace: seconds a run waits for a worker of its app to poll before 503.
    web_ui_url: the Temporal Web UI the web page (GET /ui) and the runs'
    X-Temporal-Web-UI header link to; by default TEMPORAL_UI_URL, else the dev
    server's (the frontend's port + 1000), as the CLI's links.
    """
    clients = Clients(temporal, session_service, task_queue, give_up_after, worker_grace)

    app = FastAPI(title="durable-adk", version=__version__)
    _errors(app)
    add_origin_rules(app, allow_origins or [])

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/version")
    async def version() -> dict[str, str]:
        v = sys.version_info
        return {
            "version": __version__,
            "language": "python",
            "language_version": f"{v.major}.{v.minor}.{v.micro}",
        }

    @app.get("/list-apps")
    async def list_apps(detailed: bool = Query(default=False)) -> list[str]:
        if detailed:
            raise HTTPException(
                501,
                "detailed=true is not supported: durable-adk's API server does not load"
                " apps (its workers do), so it knows their names only",
            )
        return catalog.list()

    links = WebUiLinks(temporal, web_ui_url)
    _sessions.register(app, session_service)
    _register_runs(app, catalog, clients, links)
    _hitl.register(app, clients)
    _page.register(app, links)
    if artifact_service is not None:
        _artifacts.register(app, artifact_service)
    return app


def _errors(app: FastAPI) -> None:
    @app.exception_handler(UnknownAppError)
    async def unknown_app(_: Request, error: UnknownAppError) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=404)

    @app.exception_handler(RunRefused)
    async def refused(_: Request, error: RunRefused) -> JSONResponse:
        return JSONResponse({"detail": error.detail}, status_code=error.status)

    @app.exception_handler(TemporalUnavailable)
    @app.exception_handler(TemporalUnreachableError)
    async def unreachable(_: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=503)


def _app_name(catalog: AppCatalog, req: RunAgentRequest) -> str:
    if not req.app_name:  # (google-adk's default app: $ADK_DEFAULT_APP_NAME; none here)
        raise RunRefused(400, "app_name is required (durable-adk's API server has no default app)")
    catalog.check(req.app_name)
    return req.app_name


async def _served(clients: Clients, client: AgentClient, app_name: str) -> None:
    if not await clients.workers.polled(client, app_name):
        raise RunRefused(503, no_worker(client, app_name))


def _register_runs(app: FastAPI, catalog: AppCatalog, clients: Clients, links: WebUiLinks) -> None:
    @app.post("/run")
    async def run_agent(req: RunAgentRequest) -> Response:
        app_name = _app_name(catalog, req)
        run_config = run_config_of(req)
        client = await clients.get()
        await check_request(client, app_name, req)
        await _served(clients, client, app_name)
        invocation, after = await start_run(client, app_name, req, run_config)
        try:
            events = [event_json(e) async for e in run_events(client, invocation, after)]
        except (TemporalUnreachableError, RunRefused):
            raise
        except Exception as error:  # the invocation's own exception (ADK: a 500)
            logger.exception("invocation %s failed", invocation.invocation_id)
            return JSONResponse({"detail": f"{type(error).__name__}: {error}"}, status_code=500)
        return JSONResponse(events, headers={WEB_UI_HEADER: links.of_invocation(invocation)})

    @app.post("/run_sse")
    async def run_agent_sse(req: RunAgentRequest) -> StreamingResponse:
        app_name = _app_name(catalog, req)
        run_config = run_config_of(req)
        client = await clients.get()
        await check_request(client, app_name, req)
        await _served(clients, client, app_name)
        # started before the response: a refused start is a status, not a broken stream
        invocation, after = await start_run(client, app_name, req, run_config)

        async def stream() -> AsyncIterator[str]:
            try:
                async for event in run_events(client, invocation, after):
                    for part in _sse_events(event, req.function_call_event_id):
                        yield f"data: {pydantic_core.to_json(part).decode()}\n\n"
            except Exception as error:  # as google-adk: one last message names it
                logger.exception("invocation %s failed", invocation.invocation_id)
                details = {
                    "error_type": type(error).__name__,
                    "error_message": str(error),
                    "timestamp": time.time(),
                }
                text = f"{type(error).__name__}: {error}"
                yield f"data: {pydantic_core.to_json({'error': text, 'error_details': details}).decode()}\n\n"

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={WEB_UI_HEADER: links.of_invocation(invocation)},
        )


def _sse_events(event: Event, function_call_event_id: str | None) -> list[dict[str, Any]]:
    """google-adk's SSE messages for an event: one with an artifact delta and content is
    sent as the content (no delta), then the delta alone (ADK Web renders both)."""
    if (
        not function_call_event_id
        and event.actions.artifact_delta
        and event.content
        and (event.content.parts)
    ):
        content_event = event.model_copy(deep=True)
        content_event.actions.artifact_delta = {}
        artifact_event = event.model_copy(deep=True)
        artifact_event.content = None
        return [event_json(content_event), event_json(artifact_event)]
    return [event_json(event)]
