"""durable-adk's human-in-the-loop routes: what waits, an invocation's status, and
answers (approve, reject, respond, progress) to a request of an invocation.

Runs on: process side. The same calls as `python -m client pending | approve |
reject | respond | progress`; JSON in camelCase, as google-adk's routes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, HTTPException, Query
from pydantic import BaseModel, alias_generators
from temporalio.service import RPCError, RPCStatusCode

from client import AnswerRejectedError
from workflows import names

from ._models import ApproveRequest, ResultRequest

if TYPE_CHECKING:
    from ._app import Clients

INVOCATION = "/invocations/{workflow_id}"
REQUEST = INVOCATION + "/requests/{request_id}"


def camel(model: BaseModel) -> dict[str, Any]:
    """A contract model as JSON with camelCase keys (its own fields only)."""
    data = model.model_dump(mode="json")
    return {alias_generators.to_camel(key): value for key, value in data.items()}


def _check_workflow_id(workflow_id: str) -> None:
    try:
        names.session_of(workflow_id)
    except ValueError as error:
        raise HTTPException(404, str(error)) from None


def register(app: FastAPI, clients: Clients) -> None:
    @app.get("/pending")
    async def pending(app_name: str | None = Query(default=None, alias="appName")) -> Any:
        """Every request waiting for an answer (optionally of one app), and the waiting
        invocations no worker answered for (is a worker of their app running?)."""
        try:
            listing = await (await clients.get()).pending_listing(app_name)
        except ValueError as error:  # an app name no app can have
            raise HTTPException(400, str(error)) from None
        return {
            "requests": [
                {"workflowId": workflow_id, **camel(request)}
                for workflow_id, request in listing.requests
            ],
            "unanswered": listing.unanswered,
        }

    @app.get(INVOCATION)
    async def status(workflow_id: str) -> Any:
        """The invocation's id, status and pending requests (a running invocation's)."""
        _check_workflow_id(workflow_id)
        client = await clients.get()
        try:
            found = await client.status(workflow_id)
        except RPCError as error:
            if error.status == RPCStatusCode.NOT_FOUND:
                raise HTTPException(404, f"No invocation {workflow_id!r}.") from None
            raise HTTPException(502, f"Temporal refused the status query: {error}") from None
        return {
            "workflowId": workflow_id,
            "invocationId": found.invocation_id,
            "status": found.status,
            "pending": [camel(request) for request in found.pending],
        }

    async def answer(workflow_id: str, request_id: str, kind: str, value: Any = None) -> Any:
        _check_workflow_id(workflow_id)
        client = await clients.get()
        try:
            if kind == "approve":
                message = await client.approve(workflow_id, request_id, value)
            elif kind == "reject":
                message = await client.reject(workflow_id, request_id)
            elif kind == "respond":
                message = await client.respond(workflow_id, request_id, value)
            else:
                message = await client.progress(workflow_id, request_id, value)
        except AnswerRejectedError as error:
            raise HTTPException(409, str(error)) from None
        return {"message": message}

    @app.post(REQUEST + ":approve")
    async def approve(workflow_id: str, request_id: str, req: ApproveRequest | None = None) -> Any:
        return await answer(workflow_id, request_id, "approve", req.payload if req else None)

    @app.post(REQUEST + ":reject")
    async def reject(workflow_id: str, request_id: str) -> Any:
        return await answer(workflow_id, request_id, "reject")

    @app.post(REQUEST + ":respond")
    async def respond(workflow_id: str, request_id: str, req: ResultRequest) -> Any:
        return await answer(workflow_id, request_id, "respond", req.result)

    @app.post(REQUEST + ":progress")
    async def progress(workflow_id: str, request_id: str, req: ResultRequest) -> Any:
        return await answer(workflow_id, request_id, "progress", req.result)
