"""InMemoryArtifactService: google.adk's artifacts kept in the process (not implemented yet).

Runs on: process side.
"""

from __future__ import annotations

from .base_artifact_service import BaseArtifactService


class InMemoryArtifactService(BaseArtifactService):
    """Artifacts in memory (its name only, for now)."""
