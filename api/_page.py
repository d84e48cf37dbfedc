"""The web page: one static HTML file (vanilla JS and CSS, nothing fetched from
elsewhere) that chats with an app over the API's own routes, answers what waits,
and links each invocation to the Temporal Web UI.

Runs on: process side.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import HTMLResponse, RedirectResponse

from client._cli import ui_base
from workflows.names import invocation_workflow_id

if TYPE_CHECKING:
    from client import Invocation

    from ._temporal import TemporalConnection

WEB_UI_HEADER = "X-Temporal-Web-UI"
"""Sent with /run and /run_sse: the Temporal Web UI page of the run's invocation."""


class WebUiLinks:
    """Links into the Temporal Web UI: `--web-ui-url`, else the rule the CLI uses
    (TEMPORAL_UI_URL, else the dev server's, at the frontend's port + 1000)."""

    def __init__(self, temporal: TemporalConnection, web_ui_url: str | None) -> None:
        self._temporal = temporal
        self._configured = web_ui_url

    def _where(self) -> tuple[str, str]:
        address, namespace = self._temporal.settings()
        return self._configured or ui_base(address), namespace

    def of_invocation(self, invocation: Invocation) -> str:
        """The run's history page (the workflow id's runs when the run is not known)."""
        return invocation.web_ui_url(*self._where())

    def of_session(self, workflow_id: str) -> str:
        """The runs of a session's invocation workflow id, newest first."""
        base, namespace = self._where()
        query = quote(f'WorkflowId="{workflow_id}"', safe="")
        return f"{base.rstrip('/')}/namespaces/{quote(namespace, safe='')}/workflows?query={query}"


def _page() -> str:
    return resources.files(__package__).joinpath("page.html").read_text(encoding="utf-8")


def register(app: FastAPI, links: WebUiLinks) -> None:
    html = _page()

    @app.get("/", include_in_schema=False)
    async def root() -> RedirectResponse:
        return RedirectResponse("ui")  # relative: right under a path prefix too

    @app.get("/ui", include_in_schema=False)
    async def page() -> HTMLResponse:
        return HTMLResponse(html, headers={"Cache-Control": "no-cache"})

    @app.get("/ui/session-link")
    async def session_link(
        app_name: str = Query(alias="appName"),
        user_id: str = Query(alias="userId"),
        session_id: str = Query(alias="sessionId"),
    ) -> Any:
        """The session's invocation workflow id and its Temporal Web UI page."""
        try:
            workflow_id = invocation_workflow_id(app_name, user_id, session_id)
        except ValueError as error:
            raise HTTPException(400, str(error)) from None
        return {"workflowId": workflow_id, "webUiUrl": links.of_session(workflow_id)}
