"""load_web_page and the URL checks it shares with the OpenAPI tools answer as
google-adk 2.13's: the same text for a page, the same refusals, pinning, redirects,
status and size handling, proxies.

Runs on: process side, against an HTTP server on a loopback port started here. The
tool refuses loopback (2.13 has no switch to allow it), so the fetching tests map a
made-up name to the server's address in the resolver step of both sides (the name is
still what the request carries: Host header); the refusal tests use the addresses
themselves.
"""

from __future__ import annotations

import ipaddress
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

reference_tool = pytest.importorskip("google.adk.tools.load_web_page")
pytest.importorskip("bs4")

from google.adk.tools import _url_validator as reference_validator  # noqa: E402

from adk.tools import _url_validator as ours_validator  # noqa: E402
from adk.tools import load_web_page as ours_tool  # noqa: E402

PAGE = b"""<html><head><title>Short title</title><style>p {color: red}</style></head>
<body><h1>Tiny</h1><p>The first paragraph has more than three words.</p>
<ul><li>one</li><li>a list item with enough words</li></ul>
<p>Caf\xc3\xa9 cr\xc3\xa8me br\xc3\xbbl\xc3\xa9e is on the menu today.</p></body></html>"""

_PROXY_ENV = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


class _Pages(BaseHTTPRequestHandler):
    seen: list[tuple[str, str]] = []  # (path as requested, Host header)

    def do_GET(self) -> None:
        self.seen.append((self.path, self.headers.get("Host", "")))
        path = self.path.split("://", 1)[-1].partition("/")[2]  # a proxy gets the whole URL
        if path == "page":
            self._answer(200, PAGE, "text/html; charset=utf-8")
        elif path == "redirect":
            self.send_response(302)
            self.send_header("Location", "/page")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "big":
            self.send_response(200)
            self.send_header("Content-Length", str(10 * 1024 * 1024 + 1))
            self.end_headers()
            self.wfile.write(b"x" * 1024)
        else:
            self._answer(404, b"<p>There is no such page here at all.</p>", "text/html")

    def _answer(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _PROXY_ENV:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    _Pages.seen.clear()


def _resolving(monkeypatch: pytest.MonkeyPatch, names: dict[str, tuple[str, ...]]) -> None:
    """Both sides resolve these names to these addresses (and vet nothing else)."""

    def patched(original: Any) -> Any:
        def resolve_direct(hostname: str) -> Any:
            if hostname in names:
                return tuple(ipaddress.ip_address(a) for a in names[hostname])
            return original(hostname)

        return resolve_direct

    monkeypatch.setattr(ours_tool, "resolve_direct", patched(ours_tool.resolve_direct))
    monkeypatch.setattr(
        reference_tool,
        "_resolve_direct_addresses",
        patched(reference_tool._resolve_direct_addresses),
    )


def _both(url: str) -> str:
    ours = ours_tool.load_web_page(url)
    assert ours == reference_tool.load_web_page(url), url
    return ours


def test_the_declaration_is_2_13s() -> None:
    from google.adk.tools.function_tool import FunctionTool as ReferenceFunctionTool

    from adk.tools import FunctionTool

    ours = FunctionTool(ours_tool.load_web_page)._get_declaration()
    reference = ReferenceFunctionTool(reference_tool.load_web_page)._get_declaration()
    assert ours is not None and reference is not None
    assert ours.model_dump_json(exclude_none=True) == reference.model_dump_json(exclude_none=True)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:{port}/page",
        "http://localhost:{port}/page",
        "http://LOCALHOST.:{port}/page",
        "http://app.localhost:{port}/page",
        "http://[::1]:{port}/page",
        "http://[::ffff:127.0.0.1]:{port}/page",
        "http://0.0.0.0:{port}/page",
        "http://10.0.0.7/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[64:ff9b::a9fe:a9fe]/",
        "http://[2002:a9fe:a9fe::1]/",
        "http://metadata.goog/",
        "http://metadata/computeMetadata/v1/",
        "http://build.internal/",
        "http://printer.local/",
        "ftp://example.com/file",
        "file:///etc/passwd",
        "http:///no-host",
        "http://example.com:99999/",
        "not a url",
    ],
)
def test_refused_urls_are_never_fetched(url: str, port: int) -> None:
    url = url.format(port=port)
    assert _both(url) == f"Failed to fetch url: {url}"
    assert _Pages.seen == []


def test_a_page_through_a_vetted_address_keeps_its_name(
    monkeypatch: pytest.MonkeyPatch, port: int
) -> None:
    _resolving(monkeypatch, {"pages.example": ("127.0.0.1",)})
    text = _both(f"http://pages.example:{port}/page")
    assert text == (
        "The first paragraph has more than three words.\n"
        "a list item with enough words\n"
        "Café crème brûlée is on the menu today."
    )
    assert _Pages.seen == [("/page", f"pages.example:{port}")] * 2


def test_the_next_address_is_tried_when_one_refuses(
    monkeypatch: pytest.MonkeyPatch, port: int
) -> None:
    _resolving(monkeypatch, {"pages.example": ("127.0.0.2", "127.0.0.1")})
    assert "more than three words" in _both(f"http://pages.example:{port}/page")
    assert len(_Pages.seen) == 2


@pytest.mark.parametrize("path", ["redirect", "missing", "big"])
def test_redirects_errors_and_oversized_bodies_fail(
    monkeypatch: pytest.MonkeyPatch, port: int, path: str
) -> None:
    _resolving(monkeypatch, {"pages.example": ("127.0.0.1",)})
    url = f"http://pages.example:{port}/{path}"
    assert _both(url) == f"Failed to fetch url: {url}"
    assert [p for p, _ in _Pages.seen] == [f"/{path}"] * 2  # a redirect is not followed


def test_through_a_proxy_the_proxy_resolves_the_name(
    monkeypatch: pytest.MonkeyPatch, port: int
) -> None:
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
    url = "http://pages.invalid/page"  # unresolvable here: the proxy's to resolve
    assert "more than three words" in _both(url)
    assert _Pages.seen == [(url, "pages.invalid")] * 2
    for refused in ("http://localhost/page", "http://10.0.0.7/page", "http://x.internal/"):
        assert _both(refused) == f"Failed to fetch url: {refused}"
    assert len(_Pages.seen) == 2


def test_without_the_web_extra_the_tool_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bs4", None)
    with pytest.raises(ImportError, match=r"pip install 'durable-adk\[web\]'"):
        ours_tool.load_web_page("http://example.com/")
    with pytest.raises(ImportError, match="beautifulsoup4"):
        reference_tool.load_web_page("http://example.com/")


ADDRESSES = [
    "8.8.8.8",
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "100.64.0.1",
    "169.254.169.254",
    "0.0.0.0",
    "255.255.255.255",
    "224.0.0.1",
    "2001:4860:4860::8888",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "::ffff:8.8.8.8",
    "::ffff:10.0.0.1",
    "::a9fe:a9fe",
    "::8.8.8.8",
    "2002:0808:0808::1",
    "2002:0a00:0001::1",
    "64:ff9b::808:808",
    "64:ff9b::a9fe:a9fe",
]


@pytest.mark.parametrize("address", ADDRESSES)
def test_blocked_addresses_are_2_13s(address: str) -> None:
    parsed = ipaddress.ip_address(address)
    assert ours_validator.blocked_address(parsed) == reference_validator._is_blocked_address(parsed)


@pytest.mark.parametrize(
    "name",
    ["localhost", "LocalHost.", "a.localhost", "metadata", "metadata.goog", "x.metadata.goog",
     "db.internal", "nas.local", "example.com", "localhost.example.com", "internal", "local"],
)  # fmt: skip
def test_blocked_names_are_2_13s(name: str) -> None:
    assert ours_validator.blocked_name(name) == reference_validator._is_blocked_hostname(name)


@pytest.mark.parametrize(
    "url",
    ["http://Example.com/a", "https://example.com:443/", "http://example.com:8080/",
     "https://[2001:db8::1]:8443/x", "HTTP://example.com:80", "https://example.com:80/"],
)  # fmt: skip
def test_request_targets_are_2_13s(url: str) -> None:
    ours = ours_validator.parse_request_target(url)
    reference = reference_validator._parse_request_target(url)
    assert (ours.scheme, ours.hostname, ours.host_header) == (
        reference.scheme,
        reference.hostname,
        reference.host_header,
    )


@pytest.mark.parametrize(
    ("env", "url"),
    [
        ({}, "http://example.com/"),
        ({"HTTP_PROXY": "http://proxy:3128"}, "http://example.com/"),
        ({"HTTP_PROXY": "http://proxy:3128"}, "https://example.com/"),
        ({"HTTPS_PROXY": "http://proxy:3128"}, "https://example.com/"),
        ({"ALL_PROXY": "http://proxy:3128"}, "https://example.com/"),
        ({"HTTP_PROXY": "http://proxy:3128", "NO_PROXY": "example.com"}, "http://example.com/"),
        ({"HTTP_PROXY": "http://proxy:3128", "NO_PROXY": ".example.com"}, "http://a.example.com/"),
        ({"HTTP_PROXY": "http://proxy:3128", "NO_PROXY": "10.0.0.0/8"}, "http://10.1.1.1/"),
        ({"HTTP_PROXY": "http://proxy:3128", "NO_PROXY": "*"}, "http://example.com/"),
    ],
)
def test_proxies_are_chosen_as_2_13_chooses(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], url: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert ours_validator.proxy_url(url) == reference_validator._get_proxy_url(url)
