"""BaseArtifactService: google.adk's interface of a versioned file store, and ArtifactVersion.

Runs on: activity side (tools, callbacks, plugins and request processors call it
in the worker; the workflow never sees an artifact's bytes, only the name and
version an event's `artifact_delta` records).
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any

from google.genai import types
from pydantic import BaseModel, ConfigDict, Field, alias_generators

from ..platform import time as platform_time

logger = logging.getLogger("google_adk." + __name__)


class ArtifactVersion(BaseModel):
    """Metadata of one version of an artifact."""

    model_config = ConfigDict(alias_generator=alias_generators.to_camel, populate_by_name=True)

    version: int = Field(
        description="Monotonically increasing identifier for the artifact version."
    )
    canonical_uri: str = Field(
        description="Canonical URI referencing the persisted artifact payload."
    )
    custom_metadata: dict[str, Any] = Field(
        default_factory=dict,
        description="Optional user-supplied metadata stored with the artifact.",
    )
    create_time: float = Field(
        default_factory=lambda: platform_time.get_time(),
        description="Unix timestamp (seconds) when the version record was created.",
    )
    mime_type: str | None = Field(
        default=None,
        description="MIME type when the artifact payload is stored as binary data.",
    )


def ensure_part(artifact: types.Part | dict[str, Any]) -> types.Part:
    """A Part from a Part or its dict form (camelCase or snake_case keys)."""
    if isinstance(artifact, dict):
        logger.debug("Normalizing artifact dict to types.Part: %s", list(artifact))
        return types.Part.model_validate(artifact)
    return artifact


class BaseArtifactService(ABC):
    """Saves and loads versioned artifacts, keyed by app, user, session and filename.

    A filename starting with `user:` is user-scoped (shared by the user's
    sessions); any other is scoped to its session. The first version is 0.
    """

    @abstractmethod
    async def save_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        artifact: types.Part | dict[str, Any],
        session_id: str | None = None,
        custom_metadata: dict[str, Any] | None = None,
    ) -> int:
        """Save a new version; returns its number (0 for the first)."""

    @abstractmethod
    async def load_artifact(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
    ) -> types.Part | None:
        """A version (the latest when `version` is None); None when there is none."""

    @abstractmethod
    async def list_artifact_keys(
        self, *, app_name: str, user_id: str, session_id: str | None = None
    ) -> list[str]:
        """The filenames of the session's artifacts and the user's (sorted); the user's
        alone when `session_id` is None."""

    @abstractmethod
    async def delete_artifact(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> None:
        """Delete every version of an artifact."""

    @abstractmethod
    async def list_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[int]:
        """The artifact's version numbers."""

    @abstractmethod
    async def list_artifact_versions(
        self, *, app_name: str, user_id: str, filename: str, session_id: str | None = None
    ) -> list[ArtifactVersion]:
        """The artifact's versions with their metadata."""

    @abstractmethod
    async def get_artifact_version(
        self,
        *,
        app_name: str,
        user_id: str,
        filename: str,
        session_id: str | None = None,
        version: int | None = None,
    ) -> ArtifactVersion | None:
        """One version's metadata (the latest when `version` is None); None when absent."""
