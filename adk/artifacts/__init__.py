"""Artifacts: mirrors `google.adk.artifacts` (names only: artifacts are not implemented yet).

Runs on: process side. `Runner(artifact_service=...)` and an agent with
load_artifacts raise NotImplementedError rather than run without artifacts.
"""

from .base_artifact_service import BaseArtifactService
from .in_memory_artifact_service import InMemoryArtifactService

__all__ = ["BaseArtifactService", "InMemoryArtifactService"]
