"""Gemini: the google-genai backed model (mirrors google.adk.models.google_llm.Gemini).

Runs on: activity side (worker process).

Credentials and endpoint come from the worker's environment only, read by
google-genai itself: GOOGLE_API_KEY / GEMINI_API_KEY, or GOOGLE_GENAI_USE_VERTEXAI
with GOOGLE_CLOUD_PROJECT / GOOGLE_CLOUD_LOCATION (and ADC); GOOGLE_GEMINI_BASE_URL
(GOOGLE_VERTEX_BASE_URL for Vertex AI) overrides the endpoint, e.g. to point the
real client at `adk.testing.fake_gemini.FakeGeminiServer`. google-genai's own
retries are off (HttpRetryOptions(attempts=1)): Temporal retries the activity.
Every request has an HTTP timeout (DURABLE_ADK_MODEL_TIMEOUT seconds, default 60;
a request's own `http_options.timeout` wins): a hung request fails as a transient
ModelTimeout and is retried, instead of holding the step to its start-to-close.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncGenerator
from functools import cached_property
from typing import TYPE_CHECKING, Any

from google.genai import types

from .._unimplemented import not_implemented
from ._capabilities import LlmCapabilities
from ._errors import ModelCredentialsError
from .base_llm import BaseLlm
from .llm_request import LlmRequest
from .llm_response import LlmResponse

if TYPE_CHECKING:
    from google.genai import Client

logger = logging.getLogger(__name__)

_UNIMPLEMENTED_SETTINGS = {
    "client": "a client built outside the worker (override `api_client` in a subclass)",
    "client_kwargs": "client_kwargs (override `api_client` in a subclass)",
    "base_url": "base_url (override `api_client` in a subclass)",
    "api_version": "api_version (override `api_client` in a subclass)",
    "speech_config": "live (bidi) runs",
    "use_interactions_api": "the Interactions API",
    "retry_options": "the SDK's own retries (Temporal retries the model activity: set"
    " LlmAgent.model_activity_options)",
}

_USER_AGENT = "durable-adk"
_NO_RETRIES = types.HttpRetryOptions(attempts=1)
"""One attempt, no SDK retries: a failed call fails the activity and Temporal retries it."""
DEFAULT_TIMEOUT_SECONDS = 60.0
"""HTTP timeout of a model request when DURABLE_ADK_MODEL_TIMEOUT is not set."""
_CREDENTIAL_HEADERS = frozenset(
    {"x-goog-api-key", "authorization", "cookie", "proxy-authorization"}
)


class Gemini(BaseLlm):
    """Gemini models through google-genai (Gemini API or Vertex AI).

    To customise the client (project, location, credentials, extra headers),
    subclass and override `api_client`; keep `retry_options=HttpRetryOptions(attempts=1)`
    in its http_options so that Temporal stays the only one retrying.
    """

    @property
    def capabilities(self) -> LlmCapabilities:
        """Gemini's own report: an output schema goes with tools on Vertex AI."""
        from ..flows.llm_flows.basic import output_schema_and_tools

        return LlmCapabilities(output_schema_and_tools=output_schema_and_tools(self.model))

    model: str = "gemini-2.5-flash"
    # google.adk 2.13's client settings: not implemented yet (a value other than the
    # default raises NotImplementedError; the client is built in the worker, from its
    # environment, with the SDK's retries off: see `api_client`)
    client: Any | None = None
    client_kwargs: dict[str, Any] | None = None
    base_url: str | None = None
    api_version: str | None = None
    speech_config: types.SpeechConfig | None = None
    use_interactions_api: bool = False
    retry_options: types.HttpRetryOptions | None = None

    def model_post_init(self, __context: Any) -> None:
        super().model_post_init(__context)
        for name in _UNIMPLEMENTED_SETTINGS:
            if getattr(self, name) != type(self).model_fields[name].default:
                feature = _UNIMPLEMENTED_SETTINGS[name]
                raise not_implemented(f"{type(self).__name__}({name}=...)", feature)

    @classmethod
    def supported_models(cls) -> list[str]:
        """Gemini model names, model-optimizer names and Vertex AI resource names."""
        return [
            r"gemini-.*",
            # Gemma 4 and later: served like Gemini (google-adk 2.13; Gemma 3 is its Gemma)
            r"gemma-4.*",
            # model optimizer
            r"model-optimizer-.*",
            # fine-tuned Vertex AI endpoint
            r"projects\/.+\/locations\/.+\/endpoints\/.+",
            # Vertex AI Gemini long name
            r"projects\/.+\/locations\/.+\/publishers\/google\/models\/gemini.+",
        ]

    @cached_property
    def api_client(self) -> Client:
        """The google-genai client, built on first use from the worker's environment."""
        from google.genai import Client

        http_options = types.HttpOptions(
            headers={"user-agent": _USER_AGENT, "x-goog-api-client": _USER_AGENT},
            retry_options=_NO_RETRIES,
            timeout=http_timeout_ms(),
        )
        try:
            if self.model.startswith("projects/"):
                return Client(vertexai=True, http_options=http_options)
            return Client(http_options=http_options)
        except ValueError as exc:  # no API key / project in the worker's environment
            raise ModelCredentialsError(str(exc)) from exc

    async def aclose(self) -> None:
        """Close the client's connection pool (if a client was built)."""
        client = self.__dict__.pop("api_client", None)
        if client is not None:
            await client.aio.aclose()
            client.close()

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        """Call the model once; yield the response (streaming: partial chunks, then the whole).

        Errors from google-genai / the HTTP layer propagate unchanged; classify them
        with `adk.models._errors.classify_model_error`.
        """
        _reject_unimplemented(llm_request)
        self._maybe_append_user_content(llm_request)
        model = llm_request.model or self.model
        client = self.api_client
        contents, config = _prepare_request(llm_request, vertexai=bool(client.vertexai))
        logger.debug("Gemini request: model=%s stream=%s contents=%d", model, stream, len(contents))

        if not stream:
            response = await client.aio.models.generate_content(
                model=model, contents=contents, config=config
            )
            yield LlmResponse.create(response)
            return

        aggregator = _StreamAggregator()
        chunks = await client.aio.models.generate_content_stream(
            model=model, contents=contents, config=config
        )
        try:
            async for chunk in chunks:
                yield aggregator.add(chunk)
        finally:
            aclose = getattr(chunks, "aclose", None)
            if aclose is not None:
                await aclose()
        final = aggregator.close()
        if final is not None:
            yield final


def http_timeout_ms() -> int:
    """The client's HTTP timeout in milliseconds (google-genai's unit), from the worker's
    DURABLE_ADK_MODEL_TIMEOUT (seconds), else 60 s."""
    raw = os.environ.get("DURABLE_ADK_MODEL_TIMEOUT", "").strip()
    try:
        seconds = float(raw) if raw else DEFAULT_TIMEOUT_SECONDS
    except ValueError:
        raise ValueError(
            f"DURABLE_ADK_MODEL_TIMEOUT={raw!r}: expected a number of seconds, e.g. 60"
        ) from None
    if not seconds > 0:
        raise ValueError(f"DURABLE_ADK_MODEL_TIMEOUT={raw!r}: must be more than 0 seconds")
    return max(round(seconds * 1000), 1)


# ------------------------------------------------------------------ request prep


def _prepare_request(
    llm_request: LlmRequest, *, vertexai: bool
) -> tuple[list[types.Content], types.GenerateContentConfig]:
    """The contents and config to send, without mutating `llm_request`."""
    config = llm_request.config.model_copy()
    contents = list(llm_request.contents)
    if config.http_options is not None:
        config.http_options = _safe_http_options(config.http_options)
    if not vertexai:
        # The Gemini API rejects labels and display names on blobs / file data.
        config.labels = None
        contents = [_without_display_names(content) for content in contents]
    return contents, config


def _safe_http_options(options: types.HttpOptions) -> types.HttpOptions:
    """Per-request http options, minus anything that could redirect or replace credentials.

    A request may not choose the endpoint (the worker's key would be sent there),
    pass credentials, bring its own HTTP client, or turn SDK retries back on.
    """
    headers = {
        key: value
        for key, value in (options.headers or {}).items()
        if key.lower() not in _CREDENTIAL_HEADERS
    }
    return types.HttpOptions(
        headers=headers or None,
        api_version=options.api_version,
        timeout=options.timeout,
        extra_body=options.extra_body,
        retry_options=_NO_RETRIES,
    )


def _without_display_names(content: types.Content) -> types.Content:
    parts = content.parts or []
    if not any(_has_display_name(part) for part in parts):
        return content
    new_parts = []
    for part in parts:
        update: dict[str, Any] = {}
        if part.inline_data is not None and part.inline_data.display_name:
            update["inline_data"] = part.inline_data.model_copy(update={"display_name": None})
        if part.file_data is not None and part.file_data.display_name:
            update["file_data"] = part.file_data.model_copy(update={"display_name": None})
        new_parts.append(part.model_copy(update=update) if update else part)
    return content.model_copy(update={"parts": new_parts})


def _has_display_name(part: types.Part) -> bool:
    return bool(
        (part.inline_data is not None and part.inline_data.display_name)
        or (part.file_data is not None and part.file_data.display_name)
    )


# --------------------------------------------------------------------- streaming


class _StreamAggregator:
    """Marks every streamed chunk partial and builds the final, whole response.

    The final response has all parts in order, consecutive text parts of the
    same kind (thought or not) merged, keeping the first thought signature.
    """

    def __init__(self) -> None:
        self._parts: list[types.Part] = []
        self._text: list[str] = []
        self._text_thought: bool | None = None
        self._text_signature: bytes | None = None
        self._last: types.GenerateContentResponse | None = None
        self._finish_reason: types.FinishReason | None = None
        self._usage: types.GenerateContentResponseUsageMetadata | None = None
        self._grounding: types.GroundingMetadata | None = None
        self._citation: types.CitationMetadata | None = None

    def add(self, chunk: types.GenerateContentResponse) -> LlmResponse:
        self._last = chunk
        response = LlmResponse.create(chunk)
        self._finish_reason = response.finish_reason or self._finish_reason
        self._usage = response.usage_metadata or self._usage
        self._grounding = response.grounding_metadata or self._grounding
        self._citation = response.citation_metadata or self._citation
        for part in (response.content.parts if response.content else None) or []:
            if part.text is not None and part.function_call is None:
                thought = bool(part.thought)
                if self._text and thought != self._text_thought:
                    self._flush_text()
                self._text_thought = thought
                self._text.append(part.text)
                self._text_signature = self._text_signature or part.thought_signature
            else:
                self._flush_text()
                self._parts.append(part)
        response.partial = True
        return response

    def close(self) -> LlmResponse | None:
        if self._last is None:
            return None
        self._flush_text()
        last = self._last
        candidate = last.candidates[0] if last.candidates else None
        error_code: str | None = None
        error_message: str | None = None
        if self._finish_reason and self._finish_reason != types.FinishReason.STOP:
            error_code = self._finish_reason
            error_message = candidate.finish_message if candidate else None
        elif candidate is None and last.prompt_feedback is not None:
            error_code = last.prompt_feedback.block_reason
            error_message = last.prompt_feedback.block_reason_message
        return LlmResponse(
            content=types.Content(role="model", parts=self._parts) if self._parts else None,
            grounding_metadata=self._grounding,
            citation_metadata=self._citation,
            usage_metadata=self._usage,
            finish_reason=self._finish_reason,
            error_code=error_code,
            error_message=error_message,
            partial=False,
            model_version=last.model_version,
        )

    def _flush_text(self) -> None:
        if not self._text:
            return
        part = types.Part(text="".join(self._text), thought=True if self._text_thought else None)
        if self._text_signature:
            part.thought_signature = self._text_signature
        self._parts.append(part)
        self._text = []
        self._text_thought = None
        self._text_signature = None


_UNIMPLEMENTED_REQUEST_FIELDS = {
    "cache_config": "context caching",
    "previous_interaction_id": "the Interactions API",
    "service_tier": "service tiers",
}


def _reject_unimplemented(llm_request: LlmRequest) -> None:
    """google-adk's Gemini acts on these fields; this one would ignore them: raise."""
    for name, feature in _UNIMPLEMENTED_REQUEST_FIELDS.items():
        if getattr(llm_request, name) is not None:
            raise not_implemented(f"LlmRequest.{name}", feature)
