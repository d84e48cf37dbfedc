"""google-adk 2.13's session routes: create, get, list, delete, update state.

Runs on: process side. They read and write the session store directly (no
Temporal), and, as google-adk's, do not check the app name.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.responses import JSONResponse, Response

from adk.errors.already_exists_error import AlreadyExistsError
from adk.events.event import Event
from adk.events.event_actions import EventActions
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.session import Session

from ._models import CreateSessionRequest, UpdateSessionRequest

logger = logging.getLogger(__name__)

SESSION = "/apps/{app_name}/users/{user_id}/sessions/{session_id}"


def session_json(session: Session) -> dict[str, Any]:
    return session.model_dump(exclude_none=True, by_alias=True, mode="json")


def register(app: FastAPI, store: BaseSessionService) -> None:
    async def create(
        app_name: str, user_id: str, session_id: str | None, state: dict[str, Any] | None
    ) -> Response:
        try:
            session = await store.create_session(
                app_name=app_name, user_id=user_id, state=state, session_id=session_id
            )
        except AlreadyExistsError as error:
            raise HTTPException(409, f"Session already exists: {session_id}") from error
        except (ValueError, TypeError) as error:
            raise HTTPException(400, str(error)) from error
        return JSONResponse(session_json(session))

    @app.get(SESSION)
    async def get_session(app_name: str, user_id: str, session_id: str) -> Response:
        session = await store.get_session(app_name=app_name, user_id=user_id, session_id=session_id)
        if not session:
            raise HTTPException(404, "Session not found")
        return JSONResponse(session_json(session))

    @app.get("/apps/{app_name}/users/{user_id}/sessions")
    async def list_sessions(app_name: str, user_id: str) -> Response:
        listed = await store.list_sessions(app_name=app_name, user_id=user_id)
        return JSONResponse([session_json(s) for s in listed.sessions])

    @app.post(SESSION)
    async def create_session_with_id(
        app_name: str, user_id: str, session_id: str, state: dict[str, Any] | None = None
    ) -> Response:
        """google-adk's deprecated form: the id in the path, the state as the body."""
        return await create(app_name, user_id, session_id, state)

    @app.post("/apps/{app_name}/users/{user_id}/sessions")
    async def create_session(
        app_name: str, user_id: str, req: CreateSessionRequest | None = None
    ) -> Response:
        if req is None:
            return await create(app_name, user_id, None, None)
        for name in ("events", "options"):
            if getattr(req, name):
                raise HTTPException(
                    501,
                    f"{name}: creating a session with {name} is not supported by"
                    " durable-adk's API server",
                )
        return await create(app_name, user_id, req.session_id, req.state)

    @app.delete(SESSION)
    async def delete_session(app_name: str, user_id: str, session_id: str) -> None:
        await store.delete_session(app_name=app_name, user_id=user_id, session_id=session_id)

    @app.patch(SESSION)
    async def update_session(
        app_name: str, user_id: str, session_id: str, req: UpdateSessionRequest
    ) -> Response:
        """A state change without running the agent: an event of the user's carrying it."""
        session = await store.get_session(app_name=app_name, user_id=user_id, session_id=session_id)
        if not session:
            raise HTTPException(404, "Session not found")
        event = Event(
            invocation_id=f"p-{uuid.uuid4()}",
            author="user",
            actions=EventActions(state_delta=req.state_delta),
        )
        await store.append_event(session=session, event=event)
        return JSONResponse(session_json(session))
