"""RunConfig: per-invocation runtime options.

Runs on: both sides (pure data; travels in the workflow input).
"""

from __future__ import annotations

import enum
from typing import Any

from pydantic import BaseModel, ConfigDict


class StreamingMode(enum.Enum):
    NONE = None
    SSE = "sse"
    BIDI = "bidi"


class RunConfig(BaseModel):
    """Options for one invocation. `max_llm_calls` <= 0 disables the limit."""

    model_config = ConfigDict(extra="forbid")

    streaming_mode: StreamingMode = StreamingMode.NONE
    max_llm_calls: int = 500
    save_input_blobs_as_artifacts: bool = False
    support_cfc: bool = False
    response_modalities: list[str] | None = None
    custom_metadata: dict[str, Any] | None = None
