"""load_web_page on the durable runtime: the model's call runs as a tool activity
that fetches a page from an HTTP server on loopback (started here) and answers its
text; a refused address is answered without a connection.

Runs on: test process (the Runner's worker runs in it, on the session's local
Temporal, replaying every workflow task). The tool refuses loopback, as 2.13's does
with no switch to allow it: the test maps a made-up name to the server's address in
the tool's resolver step (the request still carries the name: Host header).
"""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("bs4")

from adk import Agent  # noqa: E402
from adk.testing import MockModel  # noqa: E402
from adk.tools import load_web_page as tool_module  # noqa: E402
from adk.tools.load_web_page import load_web_page  # noqa: E402

from .helpers import call, runner_for, simplify, turn  # noqa: E402


class _Page(BaseHTTPRequestHandler):
    hosts: list[str] = []

    def do_GET(self) -> None:
        self.hosts.append(self.headers.get("Host", ""))
        body = b"<html><body><h1>Menu</h1><p>Soup of the day is leek and potato.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        return None


@pytest.fixture
def port(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    original = tool_module.resolve_direct
    monkeypatch.setattr(
        tool_module,
        "resolve_direct",
        lambda host: (
            (ipaddress.ip_address("127.0.0.1"),) if host == "cafe.example" else original(host)
        ),
    )
    _Page.hosts.clear()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


async def test_the_page_text_reaches_the_model_and_loopback_is_refused(
    temporal_env: Any, port: int
) -> None:
    page, refused = f"http://cafe.example:{port}/menu", f"http://127.0.0.1:{port}/menu"
    model = MockModel.create(
        [
            [call("load_web_page", url=page), call("load_web_page", url=refused)],
            "Leek and potato soup.",
        ]
    )
    agent = Agent(name="reader", model=model, tools=[load_web_page])
    async with runner_for(temporal_env, agent) as runner:
        events = await turn(runner, "what's the soup today?")
    assert simplify(events)[1:] == [
        ("reader", ("call", "load_web_page", {"url": page})),
        ("reader", ("call", "load_web_page", {"url": refused})),
        (
            "reader",
            ("response", "load_web_page", {"result": "Soup of the day is leek and potato."}),
        ),
        (
            "reader",
            ("response", "load_web_page", {"result": f"Failed to fetch url: {refused}"}),
        ),
        ("reader", "Leek and potato soup."),
    ]
    assert _Page.hosts == [f"cafe.example:{port}"]  # once: the refused call never connected
