"""LlmResponse: one response (or streamed chunk) from a model.

Runs on: both sides (pure data, sandbox-safe).
"""

from __future__ import annotations

from typing import Any

from google.genai import types
from pydantic import BaseModel, ConfigDict, alias_generators


class LlmResponse(BaseModel):
    """A model's answer: content, or an error code and message."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    content: types.Content | None = None
    grounding_metadata: types.GroundingMetadata | None = None
    partial: bool | None = None
    turn_complete: bool | None = None
    turn_complete_reason: types.TurnCompleteReason | None = None
    """Live runs (not implemented here): why the model completed its turn."""
    interaction_status: types.InteractionStatus | None = None
    """Live runs (not implemented here): whether the model is still working."""
    finish_reason: types.FinishReason | None = None
    error_code: str | None = None
    error_message: str | None = None
    interrupted: bool | None = None
    custom_metadata: dict[str, Any] | None = None
    usage_metadata: types.GenerateContentResponseUsageMetadata | None = None
    live_session_resumption_update: types.LiveServerSessionResumptionUpdate | None = None
    """Live runs (not implemented here)."""
    live_session_id: str | None = None
    """Live runs (not implemented here)."""
    go_away: types.LiveServerGoAway | None = None
    """Live runs (not implemented here)."""
    voice_activity: types.VoiceActivity | None = None
    """Live runs (not implemented here)."""
    input_transcription: types.Transcription | None = None
    output_transcription: types.Transcription | None = None
    avg_logprobs: float | None = None
    logprobs_result: types.LogprobsResult | None = None
    cache_metadata: Any | None = None
    """Context caching (not implemented here): google-adk's CacheMetadata, kept as data."""
    citation_metadata: types.CitationMetadata | None = None
    interaction_id: str | None = None
    environment_id: str | None = None
    """Interactions API (not implemented here): the execution environment's id."""
    model_version: str | None = None

    def get_function_calls(self) -> list[types.FunctionCall]:
        """The function calls in the response's content."""
        parts = self.content.parts if self.content and self.content.parts else []
        return [part.function_call for part in parts if part.function_call]

    def get_function_responses(self) -> list[types.FunctionResponse]:
        """The function responses in the response's content."""
        parts = self.content.parts if self.content and self.content.parts else []
        return [part.function_response for part in parts if part.function_response]

    @staticmethod
    def create(generate_content_response: types.GenerateContentResponse) -> LlmResponse:
        """Build an LlmResponse from a google-genai response (first candidate)."""
        response = generate_content_response
        usage = response.usage_metadata
        if response.candidates:
            candidate = response.candidates[0]
            if (candidate.content and candidate.content.parts) or (
                candidate.finish_reason == types.FinishReason.STOP
            ):
                return LlmResponse(
                    content=candidate.content,
                    grounding_metadata=candidate.grounding_metadata,
                    usage_metadata=usage,
                    finish_reason=candidate.finish_reason,
                    citation_metadata=candidate.citation_metadata,
                    avg_logprobs=candidate.avg_logprobs,
                    logprobs_result=candidate.logprobs_result,
                    model_version=response.model_version,
                )
            return LlmResponse(
                error_code=candidate.finish_reason,
                error_message=candidate.finish_message,
                usage_metadata=usage,
                finish_reason=candidate.finish_reason,
                model_version=response.model_version,
            )
        if response.prompt_feedback:
            feedback = response.prompt_feedback
            return LlmResponse(
                error_code=feedback.block_reason,
                error_message=feedback.block_reason_message,
                usage_metadata=usage,
                model_version=response.model_version,
            )
        return LlmResponse(
            error_code="UNKNOWN_ERROR",
            error_message="Unknown error.",
            usage_metadata=usage,
            model_version=response.model_version,
        )
