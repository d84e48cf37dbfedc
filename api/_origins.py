"""Cross-origin requests, as google-adk 2.13's api_server treats them: browsers'
requests from an origin that is neither the server's own nor allowed
(`--allow-origins`) are refused (403); allowed ones get CORS headers.

Runs on: process side.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

REGEX_PREFIX = "regex:"


def split_origins(allow_origins: list[str]) -> tuple[list[str], str | None]:
    """Literal origins, and one regex joining the `regex:` entries (google-adk's form)."""
    literal = [o for o in allow_origins if not o.startswith(REGEX_PREFIX)]
    patterns = [o[len(REGEX_PREFIX) :] for o in allow_origins if o.startswith(REGEX_PREFIX)]
    return literal, "|".join(p for p in patterns if p) or None


class OriginCheck:
    """ASGI middleware: 403 `Forbidden: origin not allowed` for a request whose Origin
    header is neither allowed nor the server's own (a request without one passes:
    scripts and curl send none)."""

    def __init__(self, app: Any, literal: list[str], pattern: str | None) -> None:
        self._app = app
        self._literal = literal
        self._regex = re.compile(pattern) if pattern else None

    def _allowed(self, origin: str, scope: dict[str, Any]) -> bool:
        if "*" in self._literal or origin in self._literal:
            return True
        if self._regex is not None and self._regex.fullmatch(origin):
            return True
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        return bool(host) and origin == f"{scope.get('scheme', 'http')}://{host}"

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            origin = dict(scope.get("headers") or []).get(b"origin")
            if origin is not None and not self._allowed(origin.decode("latin-1"), scope):
                body = b"Forbidden: origin not allowed"
                await send(
                    {
                        "type": "http.response.start",
                        "status": 403,
                        "headers": [
                            (b"content-type", b"text/plain"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self._app(scope, receive, send)


def add_origin_rules(app: FastAPI, allow_origins: list[str]) -> None:
    literal, pattern = split_origins(allow_origins)
    if allow_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=literal,
            allow_origin_regex=pattern,
            allow_credentials=True,
            allow_methods=["*"],
            allow_headers=["*"],
        )
    # added last: it runs first, before CORS answers a preflight
    app.add_middleware(OriginCheck, literal=literal, pattern=pattern)
