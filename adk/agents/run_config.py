"""RunConfig: per-invocation runtime options.

Runs on: both sides (pure data; travels in the workflow input). Fields as
google.adk 2.13's; the ones durable-adk does not act on yet (live/bidi
streaming, audio, artifacts, ...) raise NotImplementedError when set to anything
but their default, rather than be accepted and ignored.
"""

from __future__ import annotations

import enum
from typing import Any

from google.genai import types
from pydantic import BaseModel, ConfigDict, Field, model_validator

from .._unimplemented import not_implemented


class StreamingMode(enum.Enum):
    NONE = None
    SSE = "sse"
    BIDI = "bidi"


class ToolThreadPoolConfig(BaseModel):
    """google.adk's thread pool for sync tools in live mode (not implemented yet)."""

    model_config = ConfigDict(extra="forbid")

    max_workers: int = Field(default=4, ge=1)


class RunConfig(BaseModel):
    """Options for one invocation. `max_llm_calls` <= 0 disables the limit."""

    model_config = ConfigDict(extra="forbid")

    speech_config: types.SpeechConfig | None = None
    http_options: types.HttpOptions | None = None
    labels: dict[str, str] | None = None
    service_tier: str | None = None
    response_modalities: list[str] | None = None
    avatar_config: types.AvatarConfig | None = None
    save_input_blobs_as_artifacts: bool = False
    support_cfc: bool = False
    streaming_mode: StreamingMode = StreamingMode.NONE
    output_audio_transcription: types.AudioTranscriptionConfig | None = Field(
        default_factory=types.AudioTranscriptionConfig
    )
    input_audio_transcription: types.AudioTranscriptionConfig | None = Field(
        default_factory=types.AudioTranscriptionConfig
    )
    realtime_input_config: types.RealtimeInputConfig | None = None
    explicit_vad_signal: bool | None = None
    translation_config: types.TranslationConfig | None = None
    enable_affective_dialog: bool | None = None
    proactivity: types.ProactivityConfig | None = None
    session_resumption: types.SessionResumptionConfig | None = None
    history_config: types.HistoryConfig | None = None
    context_window_compression: types.ContextWindowCompressionConfig | None = None
    save_live_blob: bool = False
    tool_thread_pool_config: ToolThreadPoolConfig | None = None
    save_live_audio: bool = False
    max_llm_calls: int = 500
    """google.adk's default (it also reads $ADK_MAX_LLM_CALLS: not here, the
    workflow side reads no environment)."""
    custom_metadata: dict[str, Any] | None = None
    telemetry: Any | None = None
    get_session_config: Any | None = None
    model_input_context: list[types.Content] | None = None
    include_thoughts_from_other_agents: bool = False

    @model_validator(mode="after")
    def _reject_unimplemented(self) -> RunConfig:
        if self.streaming_mode is not StreamingMode.NONE:
            raise not_implemented(
                f"RunConfig(streaming_mode={self.streaming_mode})", "streaming (SSE or BIDI)"
            )
        defaults = _DEFAULTS
        for name in UNIMPLEMENTED.keys() & self.model_fields_set:  # (what was not set is
            if getattr(self, name) != getattr(defaults, name):  # the default: cheap)
                raise not_implemented(f"RunConfig({name}=...)", UNIMPLEMENTED[name])
        return self


LIVE_CONNECT_FIELDS = (
    "speech_config",
    "output_audio_transcription",
    "input_audio_transcription",
    "realtime_input_config",
    "explicit_vad_signal",
    "translation_config",
    "enable_affective_dialog",
    "proactivity",
    "session_resumption",
    "history_config",
    "context_window_compression",
    "avatar_config",
)
"""The live settings google-adk 2.13 copies into every request's live_connect_config."""

UNIMPLEMENTED = {
    **dict.fromkeys(
        [*LIVE_CONNECT_FIELDS, "save_live_blob", "save_live_audio", "tool_thread_pool_config"],
        "live (bidi) runs",
    ),
    "support_cfc": "compositional function calling (live)",
    "service_tier": "service tiers",
    "telemetry": "telemetry settings",
    "get_session_config": "RunConfig.get_session_config",
    # Request and contents building (adk/flows) does not read these yet: when it
    # does, drop them from here.
    "http_options": "per-run http_options",
    "response_modalities": "response_modalities",
}
"""Field -> the missing feature, for each field whose non-default value raises."""

_DEFAULTS = RunConfig.model_construct()
