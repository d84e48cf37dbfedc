"""Artifacts: versioned files an invocation saves and loads (mirrors `google.adk.artifacts`).

Runs on: activity side (the worker's tools, callbacks, plugins and request
processors use the service; the workflow only sees names and versions). The
services are imported on first use, as in google.adk: the workflow side's
imports of `adk` (InvocationContext's type) pull in no file I/O.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .base_artifact_service import BaseArtifactService

if TYPE_CHECKING:
    from .file_artifact_service import FileArtifactService
    from .gcs_artifact_service import GcsArtifactService
    from .in_memory_artifact_service import InMemoryArtifactService

__all__ = [
    "BaseArtifactService",
    "FileArtifactService",
    "GcsArtifactService",
    "InMemoryArtifactService",
]

_LAZY = {
    "FileArtifactService": "file_artifact_service",
    "GcsArtifactService": "gcs_artifact_service",
    "InMemoryArtifactService": "in_memory_artifact_service",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    from .._unported import unported_attribute

    raise unported_attribute(__name__, name)
