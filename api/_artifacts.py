"""google-adk 2.13's artifact routes, over the process's artifact service (the
workers' folder or bucket: `--artifacts`, as theirs).

Runs on: process side.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import JSONResponse, Response

from adk.artifacts.base_artifact_service import BaseArtifactService
from adk.errors.input_validation_error import InputValidationError

from ._models import SaveArtifactRequest

ARTIFACTS = "/apps/{app_name}/users/{user_id}/sessions/{session_id}/artifacts"
ARTIFACT = ARTIFACTS + "/{artifact_name:path}"


def _json(value: Any) -> Response:
    if isinstance(value, list):
        return JSONResponse([_dump(v) for v in value])
    return JSONResponse(_dump(value))


def _dump(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return value if dump is None else dump(exclude_none=True, by_alias=True, mode="json")


def _version(version_id: str) -> int | None:
    if version_id == "latest":
        return None
    try:
        return int(version_id)
    except ValueError:
        raise HTTPException(422, "Invalid version ID") from None


def register(app: FastAPI, service: BaseArtifactService) -> None:
    # the version routes first: an artifact name may hold '/', and the catch-all
    # {artifact_name:path} would take them

    @app.get(ARTIFACT + "/versions/{version_id}/metadata")
    async def get_artifact_version_metadata(
        app_name: str, user_id: str, session_id: str, artifact_name: str, version_id: str
    ) -> Response:
        found = await service.get_artifact_version(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            filename=artifact_name,
            version=_version(version_id),
        )
        if not found:
            raise HTTPException(404, "Artifact version not found")
        return _json(found)

    @app.get(ARTIFACT + "/versions/metadata")
    async def list_artifact_versions_metadata(
        app_name: str, user_id: str, session_id: str, artifact_name: str
    ) -> Response:
        return _json(
            await service.list_artifact_versions(
                app_name=app_name, user_id=user_id, session_id=session_id, filename=artifact_name
            )
        )

    @app.post(ARTIFACTS)
    async def save_artifact(
        app_name: str, user_id: str, session_id: str, req: SaveArtifactRequest
    ) -> Response:
        scope = dict(app_name=app_name, user_id=user_id, session_id=session_id)
        try:
            version = await service.save_artifact(
                **scope,
                filename=req.filename,
                artifact=req.artifact,
                custom_metadata=req.custom_metadata,
            )
        except InputValidationError as error:
            raise HTTPException(400, str(error)) from error
        saved = await service.get_artifact_version(**scope, filename=req.filename, version=version)
        if saved is None:
            raise HTTPException(500, "Artifact metadata unavailable")
        return _json(saved)

    @app.get(ARTIFACT + "/versions/{version_id}")
    async def load_artifact_version(
        app_name: str, user_id: str, session_id: str, artifact_name: str, version_id: str
    ) -> Response:
        part = await service.load_artifact(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            filename=artifact_name,
            version=_version(version_id),
        )
        if not part:
            raise HTTPException(404, "Artifact not found")
        return _json(part)

    @app.get(ARTIFACTS)
    async def list_artifact_names(app_name: str, user_id: str, session_id: str) -> Response:
        return _json(
            await service.list_artifact_keys(
                app_name=app_name, user_id=user_id, session_id=session_id
            )
        )

    @app.get(ARTIFACT + "/versions")
    async def list_artifact_versions(
        app_name: str, user_id: str, session_id: str, artifact_name: str
    ) -> Response:
        return _json(
            await service.list_versions(
                app_name=app_name, user_id=user_id, session_id=session_id, filename=artifact_name
            )
        )

    @app.get(ARTIFACT)
    async def load_artifact(
        app_name: str,
        user_id: str,
        session_id: str,
        artifact_name: str,
        version: int | None = Query(None),
    ) -> Response:
        part = await service.load_artifact(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            filename=artifact_name,
            version=version,
        )
        if not part:
            raise HTTPException(404, "Artifact not found")
        return _json(part)

    @app.delete(ARTIFACT)
    async def delete_artifact(
        app_name: str, user_id: str, session_id: str, artifact_name: str
    ) -> None:
        await service.delete_artifact(
            app_name=app_name, user_id=user_id, session_id=session_id, filename=artifact_name
        )
