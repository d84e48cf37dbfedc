"""BaseArtifactService: google.adk's versioned file store interface (not implemented yet).

Runs on: process side.
"""

from __future__ import annotations

from abc import ABC
from typing import Any

from .._unimplemented import not_implemented

FEATURE = "artifact services (load_artifacts, save_artifact, Runner(artifact_service=...))"


class BaseArtifactService(ABC):  # noqa: B024 (as google.adk: every method has a body)
    """Saves and loads versioned artifacts (its interface only, for now)."""

    async def save_artifact(self, **kwargs: Any) -> int:
        raise not_implemented(f"{type(self).__name__}.save_artifact", FEATURE)

    async def load_artifact(self, **kwargs: Any) -> Any:
        raise not_implemented(f"{type(self).__name__}.load_artifact", FEATURE)

    async def list_artifact_keys(self, **kwargs: Any) -> list[str]:
        raise not_implemented(f"{type(self).__name__}.list_artifact_keys", FEATURE)
