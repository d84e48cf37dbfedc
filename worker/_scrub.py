"""Credentials out of the worker's logs: a structlog processor that redacts them.

Runs on: process side. Tools and model clients raise exceptions that may quote
what they sent (an `Authorization: Bearer …` header, a `?key=` query, an API
key in a message); anything the worker logs passes through here first, the
exception text and traceback included.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

REDACTED = "[redacted]"

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    # Authorization: Bearer <token> / Basic <credentials> / Token <token>: a value
    # that looks like one (a digit or a symbol in it: "Bearer authentication" stays)
    (
        re.compile(
            r"(?i)\b(bearer|basic|token)(\s+)(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=])[A-Za-z0-9._~+/=-]{8,}"
        ),
        rf"\1\2{REDACTED}",
    ),
    # key=value and "key": "value" forms of the usual names
    (
        re.compile(
            r"(?i)\b(api[_-]?key|x-goog-api-key|access[_-]?token|refresh[_-]?token|id[_-]?token"
            r"|client[_-]?secret|secret|password|passwd|token)"
            # a value with a letter in it ("Input token: 1048576" stays)
            r"""(["']?\s*[=:]\s*["']?)(?=[^\s"',;&}\]]*[A-Za-z])[^\s"',;&}\]]{6,}"""
        ),
        rf"\1\2{REDACTED}",
    ),
    (re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), REDACTED),  # Google API keys
    (re.compile(r"\bya29\.[0-9A-Za-z._-]{10,}"), REDACTED),  # Google OAuth access tokens
    (re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}"), REDACTED),  # sk-… style secret keys
]


def scrub(text: str) -> str:
    """`text` with every known credential pattern redacted."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


_SECRET_NAMES = re.compile(
    r"(?i)^(api[_-]?key|x-goog-api-key|access[_-]?token|refresh[_-]?token|id[_-]?token"
    r"|client[_-]?secret|secret|password|passwd|token|authorization|credentials?)$"
)
"""Keys whose value is a secret whatever it looks like (log fields, dict entries)."""


def _scrubbed(value: Any, key: Any = None) -> Any:
    if isinstance(key, str) and _SECRET_NAMES.match(key) and value not in (None, ""):
        return REDACTED
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {k: _scrubbed(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(v) for v in value]
    if isinstance(value, tuple):
        items = [_scrubbed(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    return value


def scrub_credentials(
    logger: Any, method_name: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """structlog processor: redact credentials in every string of the event (run it
    after exceptions are rendered to text, so tracebacks are covered too)."""
    for key, value in list(event_dict.items()):
        event_dict[key] = _scrubbed(value, key)
    return event_dict
