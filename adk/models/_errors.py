"""Classification of model-call errors: retryable or not, what type, what to tell the user.

Runs on: activity side (worker process).

Pure: no temporalio import and no HTTP library import (exceptions from httpx,
httpx2, aiohttp and google-auth are recognised by class name), so the activity
layer decides how to turn a `ModelErrorInfo` into a Temporal ApplicationError.
"""

from __future__ import annotations

import email.utils
import math
import os
import re
import time
from dataclasses import dataclass
from typing import Any

from google.genai import errors as genai_errors

_MAX_PROVIDER_MESSAGE = 2000
_RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})

_AUTH_HINT = (
    "Set GOOGLE_API_KEY (or GEMINI_API_KEY) in the worker's environment; for Vertex AI set "
    "GOOGLE_GENAI_USE_VERTEXAI=true, GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION and give "
    "the worker Application Default Credentials. Keys are read by the worker only, never "
    "taken from requests."
)

# Class names (anywhere in the MRO) of transport errors from httpx / httpx2 / httpcore /
# aiohttp / google-auth, so this module need not import any of them.
_TIMEOUT_CLASS_NAMES = frozenset(
    {
        "TimeoutException",  # httpx, httpx2: ConnectTimeout, ReadTimeout, WriteTimeout, PoolTimeout
        "ServerTimeoutError",  # aiohttp
        "ConnectionTimeoutError",  # aiohttp
        "SocketTimeoutError",  # aiohttp
    }
)
_CONNECTION_CLASS_NAMES = frozenset(
    {
        "NetworkError",  # httpx, httpx2: ConnectError, ReadError, WriteError, CloseError
        "RemoteProtocolError",  # httpx, httpx2, httpcore
        "ProxyError",  # httpx, httpx2
        "ConnectError",  # httpcore
        "ReadError",  # httpcore
        "WriteError",  # httpcore
        "ClientConnectionError",  # aiohttp: ClientConnectorError, ServerDisconnectedError, ...
        "ClientPayloadError",  # aiohttp
    }
)
_TRANSPORT_MODULE_PREFIXES = ("httpx", "httpx2", "httpcore", "httpcore2", "aiohttp")


class ModelCredentialsError(ValueError):
    """The worker's environment does not configure credentials for the model client."""


class PermanentModelError(Exception):
    """A model failure no retry can fix (e.g. a scripted model's script ran out)."""


@dataclass(frozen=True)
class ModelErrorInfo:
    """What went wrong in a model call, and whether trying again can help."""

    retryable: bool
    error_type: str
    """ModelRateLimited, ModelServerError, ModelTimeout, ModelConnectionError,
    ModelBadRequest, ModelAuthError, ModelNotFound or ModelError."""
    message: str
    retry_after: float | None = None
    """Seconds the provider asked us to wait (Retry-After header or RetryInfo)."""
    status_code: int | None = None
    """The HTTP status, when the provider answered."""


def classify_model_error(exc: BaseException, *, model: str | None = None) -> ModelErrorInfo:
    """Classify an exception raised by a model call.

    HTTP 408/429/5xx, timeouts and connection errors are retryable; other 4xx are
    not (401/403 -> ModelAuthError, 404 -> ModelNotFound, rest -> ModelBadRequest).
    Anything unrecognised is a non-retryable ModelError. `model` (optional) names the
    model in messages; otherwise it is read from the request URL when available.
    """
    if isinstance(exc, genai_errors.APIError):
        return _classify_api_error(exc, model)
    return _classify_other(exc)


# --------------------------------------------------------------------- API errors


def _classify_api_error(exc: genai_errors.APIError, model: str | None) -> ModelErrorInfo:
    code = exc.code if isinstance(exc.code, int) else None
    status = exc.status or ""
    provider = _provider_message(exc)
    model = model or _model_from_response(exc.response)
    head = f"Gemini API returned HTTP {code}" if code else "Gemini API error"
    if status:
        head += f" {status}"
    detail = f"{head}: {provider}" if provider else head

    if code is None or not 400 <= code < 600:
        return _info(True, "ModelError", detail, None, code)

    if code in _RETRYABLE_STATUS or code >= 500:
        retry_after = _retry_after(exc)
        if code == 429:
            error_type = "ModelRateLimited"
            hint = "Rate limit or quota exceeded; the call will be retried"
        elif code == 408:
            error_type = "ModelTimeout"
            hint = "The provider timed out; the call will be retried"
        else:
            error_type = "ModelServerError"
            hint = "Server error at the provider; the call will be retried"
        if retry_after is not None:
            hint += f" after {_seconds(retry_after)}s, as the provider asked"
        return _info(True, error_type, f"{detail}. {hint}.", retry_after, code)

    if code in (401, 403) or (code == 400 and _is_invalid_api_key(exc, provider)):
        return _info(False, "ModelAuthError", f"{detail}. {_AUTH_HINT}", None, code)
    if code == 404:
        name = f"Model {model!r}" if model else "The model"
        message = (
            f"{name} was not found (HTTP 404{' ' + status if status else ''}"
            f"{': ' + provider if provider else ''}). Check the model name and that it is "
            "available to this API key / project and API version."
        )
        return _info(False, "ModelNotFound", message, None, code)
    return _info(
        False,
        "ModelBadRequest",
        f"{detail}. The request was rejected; retrying will not help until it is fixed.",
        None,
        code,
    )


def _seconds(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _provider_message(exc: genai_errors.APIError) -> str:
    message = exc.message
    if not message and exc.details is not None:
        message = str(exc.details)
    message = str(message or "").strip()
    if len(message) > _MAX_PROVIDER_MESSAGE:
        message = message[:_MAX_PROVIDER_MESSAGE] + "..."
    return message


def _is_invalid_api_key(exc: genai_errors.APIError, provider: str) -> bool:
    # The Gemini API answers a bad key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
    return "API_KEY_INVALID" in str(exc.details) or "API key not valid" in provider


def _model_from_response(response: Any) -> str | None:
    request = getattr(response, "request", None)  # httpx / httpx2 responses
    url = getattr(request, "url", None) or getattr(response, "url", None)
    if url is None:
        return None
    match = re.search(r"/models/([^/:?]+)", str(url))
    return match.group(1) if match else None


# ---------------------------------------------------------------- Retry-After


def _retry_after(exc: genai_errors.APIError) -> float | None:
    """Seconds to wait, from the Retry-After header, else from a google.rpc.RetryInfo."""
    value = _header(getattr(exc, "response", None), "retry-after")
    if value is not None:
        parsed = parse_retry_after(value)
        if parsed is not None:
            return parsed
    return _retry_info_delay(exc.details)


def parse_retry_after(value: str) -> float | None:
    """Parse a Retry-After value: delta-seconds or an HTTP-date. None if malformed."""
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return max(seconds, 0.0) if math.isfinite(seconds) else None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT
        return None
    return max(when.timestamp() - time.time(), 0.0)


def _header(response: Any, name: str) -> str | None:
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    try:
        value = headers.get(name)  # httpx, aiohttp, requests: case-insensitive
        if value is None and isinstance(headers, dict):
            value = next((v for k, v in headers.items() if k.lower() == name), None)
    except Exception:  # odd header containers: treat as no Retry-After
        return None
    return str(value) if value is not None else None


def _retry_info_delay(details: Any) -> float | None:
    # {"error": {"details": [{"@type": ".../google.rpc.RetryInfo", "retryDelay": "37s"}]}}
    if isinstance(details, list) and len(details) == 1:
        details = details[0]
    if not isinstance(details, dict):
        return None
    error = details.get("error", details)
    entries = error.get("details") if isinstance(error, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and str(entry.get("@type", "")).endswith("RetryInfo"):
            match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)s\s*", str(entry.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    return None


# --------------------------------------------------------------- other errors


def _classify_other(exc: BaseException) -> ModelErrorInfo:
    names = {cls.__name__ for cls in type(exc).__mro__}
    transport = type(exc).__module__.split(".")[0] in _TRANSPORT_MODULE_PREFIXES
    text = _describe(exc)

    if isinstance(exc, PermanentModelError):
        return _info(False, type(exc).__name__, text)
    if isinstance(exc, ModelCredentialsError):
        return _info(False, "ModelAuthError", f"Cannot build the model client: {exc}. {_AUTH_HINT}")
    if "DefaultCredentialsError" in names:
        return _info(
            False, "ModelAuthError", f"No Google credentials on the worker: {text}. {_AUTH_HINT}"
        )
    if "RefreshError" in names:
        retryable = bool(getattr(exc, "retryable", False))
        return _info(
            retryable,
            "ModelAuthError",
            f"Could not refresh Google credentials: {text}. {_AUTH_HINT}",
        )
    if (transport and names & _TIMEOUT_CLASS_NAMES) or isinstance(exc, TimeoutError):
        # asyncio.TimeoutError is TimeoutError on Python 3.11+.
        return _info(
            True, "ModelTimeout", f"Model call timed out: {text}. The call will be retried."
        )
    if (
        (transport and names & _CONNECTION_CLASS_NAMES)
        or isinstance(exc, ConnectionError)
        or ("TransportError" in names and type(exc).__module__.startswith("google.auth"))
    ):
        return _info(
            True,
            "ModelConnectionError",
            f"Could not reach the model endpoint: {text}. Check the worker's network and "
            "GOOGLE_GEMINI_BASE_URL if set; the call will be retried.",
        )
    if isinstance(exc, genai_errors.UnknownApiResponseError):
        return _info(True, "ModelError", f"Unreadable response from the model: {text}.")
    # anything else (a custom model's own exception) is not known to be transient:
    # retrying would repeat it, so it fails at once, as in google-adk
    return _info(False, "ModelError", f"Model call failed: {text}.")


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    name = type(exc).__name__
    if not text:
        return name
    if len(text) > _MAX_PROVIDER_MESSAGE:
        text = text[:_MAX_PROVIDER_MESSAGE] + "..."
    return f"{name}: {text}"


def _info(
    retryable: bool,
    error_type: str,
    message: str,
    retry_after: float | None = None,
    status_code: int | None = None,
) -> ModelErrorInfo:
    return ModelErrorInfo(
        retryable=retryable,
        error_type=error_type,
        message=redact(message),
        retry_after=retry_after,
        status_code=status_code,
    )


def redact(text: str) -> str:
    """Never let the worker's API key reach a message (messages land in workflow history)."""
    for var in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        secret = os.environ.get(var, "").strip()
        if len(secret) >= 4:
            text = text.replace(secret, "***")
    return re.sub(r"([?&]key=)[^&\s'\"]+", r"\1***", text)
