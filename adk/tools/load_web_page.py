"""load_web_page: the function tool that fetches a URL and returns its text, as google-adk 2.13's.

Runs on: activity side (the tool-call activity, in a worker thread as every sync
function tool). The URL is vetted by adk/tools/_url_validator.py (no private,
loopback or metadata targets; the connection pinned to the vetted address, the Host
header and TLS name kept); redirects are not followed; only a 200 answer is read,
at most 10 MiB within 60 s (30 s per connect and per chunk). Whatever fails gives the
model `Failed to fetch url: <url>`. The text is BeautifulSoup's (lxml parser), lines
of four words or more: the `web` extra (`pip install 'durable-adk[web]'`), asked for
when the tool runs, as google-adk asks for its `extensions` extra.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import ParseResult

import requests
from requests.adapters import HTTPAdapter

from ._url_validator import (
    Address,
    RequestTarget,
    blocked_address,
    blocked_name,
    check_proxied,
    format_host,
    ip_literal,
    parse_request_target,
    proxy_url,
    resolve_direct,
)

_TIMEOUT_SECONDS = 30  # connect, and between two chunks (not the whole transfer)
_MAX_BODY_READ_SECONDS = 60  # the whole body: a drip-fed answer cannot hold it open
_MAX_RESPONSE_BYTES = 10 * 1024 * 1024
_CHUNK_BYTES = 64 * 1024


class _PinnedAddressAdapter(HTTPAdapter):
    """Sends to the vetted address while the request keeps its name (Host header,
    and for https the certificate's name and SNI)."""

    def __init__(self, *, rewritten_url: str, host_header: str, hostname: str) -> None:
        super().__init__()
        self._rewritten_url = rewritten_url
        self._host_header = host_header
        self._hostname = hostname

    def build_connection_pool_key_attributes(
        self,
        request: requests.PreparedRequest,
        verify: bool | str,
        cert: tuple[str, str] | str | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        if host_params["scheme"] == "https":
            pool_kwargs["assert_hostname"] = self._hostname
            pool_kwargs["server_hostname"] = self._hostname
        return host_params, pool_kwargs

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> Any:
        pinned = request.copy()
        pinned.headers["Host"] = self._host_header
        pinned.url = self._rewritten_url
        return super().send(pinned, *args, **kwargs)


def _declared_length(response: requests.Response) -> int:
    """Content-Length, or 0 when missing or unusable (the cap then holds while reading)."""
    try:
        return max(0, int(response.headers.get("Content-Length", 0)))
    except ValueError:
        return 0


def _read_capped(response: requests.Response) -> bytes:
    if response.status_code != 200:
        raise ValueError(f"Unexpected response status: {response.status_code}")
    if _declared_length(response) > _MAX_RESPONSE_BYTES:
        raise ValueError(f"Response body is too large: {response.url}")
    deadline = time.monotonic() + _MAX_BODY_READ_SECONDS
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_content(chunk_size=_CHUNK_BYTES):
        size += len(chunk)
        if size > _MAX_RESPONSE_BYTES:
            raise ValueError(f"Response body is too large: {response.url}")
        if time.monotonic() > deadline:
            raise ValueError(f"Timed out reading response body: {response.url}")
        chunks.append(chunk)
    return b"".join(chunks)


def _with_host(parsed: ParseResult, host: str) -> str:
    netloc = format_host(host) if parsed.port is None else f"{format_host(host)}:{parsed.port}"
    return parsed._replace(netloc=netloc).geturl()


def _fetch_pinned(url: str, target: RequestTarget, addresses: tuple[Address, ...]) -> bytes:
    """Each vetted address in turn until one answers; the last failure otherwise."""
    failure: requests.RequestException | None = None
    for address in addresses:
        session = requests.Session()
        session.mount(
            f"{target.scheme}://",
            _PinnedAddressAdapter(
                rewritten_url=_with_host(target.parsed_url, str(address)),
                host_header=target.host_header,
                hostname=target.hostname,
            ),
        )
        try:
            with session.get(
                url,
                allow_redirects=False,
                proxies={"http": None, "https": None},  # type: ignore[dict-item]  # no proxy: pinned
                timeout=_TIMEOUT_SECONDS,
                stream=True,
            ) as response:
                return _read_capped(response)
        except requests.RequestException as error:
            failure = error
        finally:
            session.close()
    if failure is not None:
        raise failure
    raise requests.RequestException(f"Unable to fetch url: {url}")


def _fetch(url: str) -> bytes:
    target = parse_request_target(url)
    literal = ip_literal(target.hostname)
    if blocked_name(target.hostname) or (literal is not None and blocked_address(literal)):
        raise ValueError(f"Blocked host: {target.hostname}")
    if proxy_url(url):
        # the proxy resolves the name: no address to pin, so a best-effort check here
        if literal is None:
            check_proxied(target.hostname)
        with requests.get(
            url, allow_redirects=False, timeout=_TIMEOUT_SECONDS, stream=True
        ) as response:
            return _read_capped(response)
    addresses = (literal,) if literal is not None else resolve_direct(target.hostname)
    return _fetch_pinned(url, target, addresses)


def load_web_page(url: str) -> str:
    """Fetches the content in the url and returns the text in it.

    Args:
        url (str): The url to browse.

    Returns:
        str: The text content of the url.
    """
    try:
        import lxml  # noqa: F401  (BeautifulSoup's parser below)
        from bs4 import BeautifulSoup
    except ImportError as error:
        raise ImportError(
            'load_web_page requires the "beautifulsoup4" and "lxml" packages.'
            " Install them with: pip install 'durable-adk[web]'"
        ) from error
    try:
        content = _fetch(url)
    except (ValueError, requests.RequestException):
        return f"Failed to fetch url: {url}"
    text = BeautifulSoup(content, "lxml").get_text(separator="\n", strip=True)
    # lines of three words or fewer (menus, single words, short titles) are dropped
    return "\n".join(line for line in text.splitlines() if len(line.split()) > 3)
