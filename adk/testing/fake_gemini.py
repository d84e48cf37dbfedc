"""FakeGeminiServer: a scripted, local stand-in for the Gemini REST API, for tests.

Runs on: test process.

Point the real google-genai client at it with GOOGLE_GEMINI_BASE_URL=server.base_url
(and any GOOGLE_API_KEY). Each request to `/{version}/models/{model}:generateContent`
or `:streamGenerateContent` takes the next item of the script:

- a dict: a GenerateContentResponse body in REST (camelCase) form;
- `FakeGeminiServer.text("hi")` / `FakeGeminiServer.function_call("f", {...})`;
- `FakeGeminiServer.error(429, "Resource exhausted", retry_after=2)`;
- for streaming requests, a list of dicts: one server-sent event each
  (a single dict is sent as one event).

Requests are recorded in `.requests` (path, query, headers, parsed JSON body),
with credential headers redacted. An exhausted script answers HTTP 500 with a
message saying so. Standard library only.

    with FakeGeminiServer(responses=[FakeGeminiServer.text("hi")]) as server:
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", server.base_url)
        ...
        assert server.requests[0].body["contents"][0]["parts"][0]["text"] == "hello"
"""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

__all__ = ["FakeError", "FakeGeminiServer", "RecordedRequest"]

_PATH = re.compile(r"^/[^/]+/(?:.*/)?models/(?P<model>[^/:]+):(?P<method>[A-Za-z]+)$")
_REDACTED = "<redacted>"
_SECRET_HEADERS = frozenset({"x-goog-api-key", "authorization", "proxy-authorization", "cookie"})
_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    408: "DEADLINE_EXCEEDED",
    409: "ABORTED",
    429: "RESOURCE_EXHAUSTED",
    499: "CANCELLED",
    500: "INTERNAL",
    501: "NOT_IMPLEMENTED",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}


@dataclass(frozen=True)
class FakeError:
    """A scripted error answer: HTTP status, Google-style error body, optional Retry-After."""

    code: int
    message: str
    status: str | None = None
    retry_after: float | str | None = None
    """Seconds (sent as delta-seconds) or a preformatted value such as an HTTP-date."""
    details: list[dict[str, Any]] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "status": self.status or _STATUS_NAMES.get(self.code, "UNKNOWN"),
        }
        if self.details is not None:
            error["details"] = self.details
        return {"error": error}


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received (credential headers redacted)."""

    method: str
    path: str
    model: str | None
    rpc: str | None
    """generateContent, streamGenerateContent, ..."""
    query: dict[str, list[str]]
    headers: dict[str, str]
    """Lower-cased names; x-goog-api-key / authorization values are '<redacted>'."""
    body: Any
    """The parsed JSON body (None if empty or not JSON)."""


ScriptItem = Mapping[str, Any] | list[Mapping[str, Any]] | FakeError


class FakeGeminiServer:
    """A scripted Gemini REST API on 127.0.0.1 (ephemeral port), in a background thread."""

    def __init__(self, responses: Iterable[ScriptItem] = ()) -> None:
        self._script: deque[ScriptItem] = deque(responses)
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ script helpers

    @staticmethod
    def text(
        text: str, *, finish_reason: str | None = "STOP", model_version: str = "fake-gemini"
    ) -> dict[str, Any]:
        """A response whose single candidate says `text`."""
        return FakeGeminiServer.response(
            [{"text": text}], finish_reason=finish_reason, model_version=model_version
        )

    @staticmethod
    def function_call(
        name: str, args: Mapping[str, Any] | None = None, *, id: str | None = None
    ) -> dict[str, Any]:
        """A response whose single candidate calls function `name` with `args`."""
        call: dict[str, Any] = {"name": name, "args": dict(args or {})}
        if id is not None:
            call["id"] = id
        return FakeGeminiServer.response([{"functionCall": call}])

    @staticmethod
    def response(
        parts: list[dict[str, Any]],
        *,
        finish_reason: str | None = "STOP",
        model_version: str = "fake-gemini",
        usage: Mapping[str, int] | None = None,
    ) -> dict[str, Any]:
        """A GenerateContentResponse body with one model candidate made of `parts` (REST form)."""
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        if finish_reason is not None:
            candidate["finishReason"] = finish_reason
        return {
            "candidates": [candidate],
            "usageMetadata": dict(
                usage or {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}
            ),
            "modelVersion": model_version,
        }

    @staticmethod
    def error(
        code: int,
        message: str,
        *,
        retry_after: float | str | None = None,
        status: str | None = None,
        details: list[dict[str, Any]] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> FakeError:
        """An error answer: HTTP `code` with a Google-style `{"error": {...}}` body."""
        return FakeError(code, message, status, retry_after, details, dict(headers or {}))

    # ------------------------------------------------------------------ control

    def add(self, *items: ScriptItem) -> None:
        """Append items to the script."""
        with self._lock:
            self._script.extend(items)

    @property
    def requests(self) -> list[RecordedRequest]:
        """The requests received so far, oldest first (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def remaining(self) -> int:
        """How many scripted items have not been served yet."""
        with self._lock:
            return len(self._script)

    @property
    def base_url(self) -> str:
        """e.g. 'http://127.0.0.1:54321' (the server must be started)."""
        if self._httpd is None:
            raise RuntimeError("FakeGeminiServer is not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> FakeGeminiServer:
        """Start serving (idempotent)."""
        if self._httpd is not None:
            return self
        handler = type("_BoundHandler", (_Handler,), {"fake": self})
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        httpd.daemon_threads = True
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.01},
            name="fake-gemini",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port (idempotent)."""
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        httpd.shutdown()
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeGeminiServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ---------------------------------------------------------------- internals

    def _record_and_next(self, request: RecordedRequest) -> tuple[int, ScriptItem | None]:
        with self._lock:
            self._requests.append(request)
            number = len(self._requests)
            item = self._script.popleft() if self._script else None
        return number, item


class _Handler(BaseHTTPRequestHandler):
    """HTTP/1.0: one request per connection, so stopping never waits on idle keep-alives."""

    fake: FakeGeminiServer
    server_version = "FakeGemini/1.0"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # quiet; and request lines are never logged anywhere

    def do_POST(self) -> None:
        self._serve()

    def do_GET(self) -> None:
        self._serve()

    def _serve(self) -> None:
        url = urlsplit(self.path)
        match = _PATH.match(url.path)
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = RecordedRequest(
            method=self.command,
            path=url.path,
            model=match["model"] if match else None,
            rpc=match["method"] if match else None,
            query=parse_qs(url.query),
            headers=_redacted_headers(self.headers),
            body=body,
        )
        if match is None or match["method"] not in ("generateContent", "streamGenerateContent"):
            self._send_json(
                404,
                FakeError(404, f"FakeGeminiServer: no route for {self.command} {url.path}").body(),
            )
            return
        number, item = self.fake._record_and_next(request)
        if item is None:
            message = (
                f"FakeGeminiServer script exhausted: request #{number} "
                f"({self.command} {url.path}) has no scripted response."
            )
            self._send_json(500, FakeError(500, message).body())
        elif isinstance(item, FakeError):
            headers = dict(item.headers)
            if item.retry_after is not None:
                value = item.retry_after
                headers["Retry-After"] = f"{value:g}" if isinstance(value, float | int) else value
            self._send_json(item.code, item.body(), headers)
        elif match["method"] == "streamGenerateContent":
            chunks = item if isinstance(item, list) else [item]
            payload = "".join(f"data: {json.dumps(chunk)}\r\n\r\n" for chunk in chunks)
            self._send(200, payload.encode(), "text/event-stream")
        elif isinstance(item, list):
            self._send_json(
                500,
                FakeError(
                    500,
                    f"FakeGeminiServer: request #{number} is not streaming but its scripted "
                    "response is a list of stream chunks.",
                ).body(),
            )
        else:
            self._send_json(200, dict(item))

    def _send_json(self, code: int, body: Any, headers: Mapping[str, str] | None = None) -> None:
        self._send(code, json.dumps(body).encode(), "application/json; charset=UTF-8", headers)

    def _send(
        self,
        code: int,
        payload: bytes,
        content_type: str,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)


def _redacted_headers(headers: Message) -> dict[str, str]:
    return {
        name.lower(): _REDACTED if name.lower() in _SECRET_HEADERS else value
        for name, value in headers.items()
    }
