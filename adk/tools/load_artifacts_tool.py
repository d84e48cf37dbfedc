"""load_artifacts: lets the model load the session's artifacts (not implemented yet).

Runs on: process side. An agent with this tool raises NotImplementedError.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..artifacts.base_artifact_service import FEATURE
from ._unimplemented_tool import UnimplementedTool


class LoadArtifactsTool(UnimplementedTool):
    """Loads artifacts into the request (google.adk's signature)."""

    feature = FEATURE

    def __init__(
        self,
        *,
        process_artifact: Callable[..., Any] | None = None,
        enable_spreadsheet_parsing: bool = False,
    ) -> None:
        super().__init__(name="load_artifacts", description="Loads the artifacts.")
        self.process_artifact = process_artifact
        self.enable_spreadsheet_parsing = enable_spreadsheet_parsing


load_artifacts_tool = LoadArtifactsTool()
