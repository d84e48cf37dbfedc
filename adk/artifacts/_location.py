"""Where a process's artifacts live, from one setting: a folder, gs://BUCKET, or none.

Runs on: process side (the worker's `--artifacts`, the client's `artifacts` command).
"""

from __future__ import annotations

import os

from .base_artifact_service import BaseArtifactService

ENV = "DURABLE_ADK_ARTIFACTS_DIR"


def artifact_service_at(where: str | None) -> BaseArtifactService | None:
    """`where` (else $DURABLE_ADK_ARTIFACTS_DIR, else $DURABLE_ADK_DATA_DIR/artifacts):
    a folder (a FileArtifactService, created if missing), `gs://BUCKET` (a
    GcsArtifactService) or `none`. ValueError for anything else."""
    where = where or os.environ.get(ENV) or None
    if where is not None and where.lower() == "none":
        return None
    if where is None:
        where = os.path.join(os.environ.get("DURABLE_ADK_DATA_DIR") or ".data", "artifacts")
    if where.startswith("gs://"):
        bucket = where.removeprefix("gs://").rstrip("/")
        if not bucket or "/" in bucket:
            raise ValueError(f"--artifacts {where!r}: give a bucket, gs://BUCKET (no path).")
        from .gcs_artifact_service import GcsArtifactService

        return GcsArtifactService(bucket)
    if "://" in where:
        raise ValueError(f"--artifacts {where!r}: give a folder, gs://BUCKET or none.")
    from .file_artifact_service import FileArtifactService

    return FileArtifactService(where)
