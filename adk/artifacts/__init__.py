"""Artifacts: mirrors `google.adk.artifacts` (names only: artifacts are not implemented yet).

Runs on: process side. `Runner(artifact_service=...)` and an agent with
load_artifacts raise NotImplementedError rather than run without artifacts.
"""

from typing import Any

from .._unported import unported_attribute
from .base_artifact_service import BaseArtifactService
from .in_memory_artifact_service import InMemoryArtifactService

__all__ = ["BaseArtifactService", "InMemoryArtifactService"]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
