"""GcsArtifactService: google.adk's artifacts in a Google Cloud Storage bucket (not implemented yet).

Runs on: activity side. Until it is, constructing it raises NotImplementedError
naming it; a FileArtifactService on a volume every worker mounts is the shared
store available today.
"""

from __future__ import annotations

from typing import Any

from .._unimplemented import not_implemented


class GcsArtifactService:
    """Artifacts in a GCS bucket (google.adk's signature; not implemented yet)."""

    def __init__(self, bucket_name: str, **kwargs: Any) -> None:
        raise not_implemented(
            "GcsArtifactService",
            "the Google Cloud Storage artifact service (use FileArtifactService)",
        )
