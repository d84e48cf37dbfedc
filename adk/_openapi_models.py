"""FastAPI's OpenAPI 3.1 models (`fastapi.openapi.models`), imported in one place.

Runs on: activity side (worker process). google-adk 2.13's OpenAPI tools and auth
schemes are these pydantic models (a spec's `Operation`, `Schema`, `APIKey`,
`HTTPBearer`, ...), so durable-adk takes the same ones: a user's objects pass
unchanged, and a schema serializes with the same keys in the same order, which
keeps tool declarations byte-identical. Importing this module without FastAPI
raises an ImportError that says which extra to install.
"""

from __future__ import annotations

try:
    from fastapi.encoders import jsonable_encoder
    from fastapi.openapi import models
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "OpenAPI tools and auth schemes need FastAPI's OpenAPI models: pip install"
        f" 'durable-adk[openapi]' (or `pip install fastapi`). ({error})",
        name=getattr(error, "name", None),
    ) from error

__all__ = ["jsonable_encoder", "models"]
