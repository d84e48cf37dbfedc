"""Sends a RestApiTool's request, refusing private targets as google-adk 2.13 does.

Runs on: activity side (the tool-call activity). Unless the tool allows private
network access, a URL is refused (ValueError, which the tool turns into its error
result) when its scheme is not http(s), its host is a local or internal name
(`localhost`, `*.local`, `*.internal`, `metadata.goog`, ...), or any address it
resolves to is not globally routable (IPv4 embedded in IPv6 included); the request
then goes to the vetted address itself (Host header and TLS SNI keep the name), so
a DNS answer that changes in between cannot redirect it, and redirects are not
followed. Through a proxy (the environment's or the client's) the name is checked
and handed to the proxy. The checks are adk/tools/_url_validator.py's, which
load_web_page shares (as google-adk 2.13's tools share theirs).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import ssl
from collections.abc import Callable
from typing import Any, Final
from urllib.parse import urlsplit

import httpx

from ...._unimplemented import not_implemented
from ..._url_validator import (
    Address,
    blocked_address,
    blocked_name,
    check_proxied,
    ip_literal,
    parse_request_target,
    proxy_url,
    resolve_direct,
)

HttpxClientFactory = Callable[[], httpx.AsyncClient]
"""A zero-argument factory of a fresh `httpx.AsyncClient` per call (closed after it)."""

DEFAULT_TIMEOUT: Final[httpx.Timeout] = httpx.Timeout(
    connect=10.0, read=600.0, write=600.0, pool=10.0
)


@dataclasses.dataclass(frozen=True)
class _Target:
    hostname: str
    addresses: tuple[Address, ...] | None  # None: a proxy resolves the name


def _uses_proxy(client: httpx.AsyncClient, url: str, own_client: bool) -> bool:
    if own_client:
        return bool(proxy_url(url))
    default = getattr(client, "_transport", None)
    if isinstance(default, httpx.AsyncBaseTransport):
        if client._transport_for_url(httpx.URL(url)) is not default:
            return True
    return bool(client.trust_env and proxy_url(url))


async def _vet(url: str, client: httpx.AsyncClient, own_client: bool) -> _Target:
    parse_request_target(url)
    try:
        hostname = httpx.URL(url).raw_host.decode("ascii")
    except httpx.InvalidURL as error:
        raise ValueError(f"Invalid url: {url}") from error
    if not hostname:
        raise ValueError(f"URL is missing a hostname: {url}")
    literal = ip_literal(hostname)
    if blocked_name(hostname) or (literal is not None and blocked_address(literal)):
        raise ValueError(f"Blocked host: {hostname}")
    if _uses_proxy(client, url, own_client):
        if literal is None:
            await asyncio.to_thread(check_proxied, hostname)
        return _Target(hostname, None)
    if literal is not None:
        return _Target(hostname, (literal,))
    return _Target(hostname, await asyncio.to_thread(resolve_direct, hostname))


async def _send_pinned(
    client: httpx.AsyncClient, target: _Target, params: dict[str, Any]
) -> httpx.Response:
    """The request sent to each vetted address in turn until one connects."""
    assert target.addresses is not None
    url = httpx.URL(params.pop("url"))
    headers = httpx.Headers(params.pop("headers", None) or {})
    headers["Host"] = url.netloc.decode("ascii")
    extensions = {**(params.pop("extensions", None) or {}), "sni_hostname": target.hostname}
    failure: Exception | None = None
    for address in target.addresses:
        try:
            return await _request(
                client,
                url=url.copy_with(host=str(address)),
                headers=headers,
                extensions=extensions,
                follow_redirects=False,
                **params,
            )
        except (httpx.ConnectError, httpx.ConnectTimeout) as error:
            failure = error
    assert failure is not None
    raise failure


def _check_client_certificate(url: str, verify: Any, factory: HttpxClientFactory | None) -> None:
    """2.13 presents the machine's default client certificate (mTLS) to
    *.googleapis.com when the environment asks for it: not ported, so refused."""
    parsed = urlsplit(url)
    if factory is not None or isinstance(verify, ssl.SSLContext):
        return
    if parsed.scheme != "https" or not (parsed.hostname or "").endswith(".googleapis.com"):
        return
    try:
        from google.auth.transport import mtls

        wanted = bool(mtls.should_use_client_cert()) and mtls.has_default_client_cert_source()
    except (ImportError, AttributeError):
        wanted = os.getenv("GOOGLE_API_USE_CLIENT_CERTIFICATE", "false").lower() == "true"
    if wanted:
        raise not_implemented(
            "RestApiTool calling *.googleapis.com with GOOGLE_API_USE_CLIENT_CERTIFICATE",
            "mTLS with the default client certificate (pass an httpx_client_factory"
            " whose client presents it)",
        )


async def send(
    *,
    httpx_client_factory: HttpxClientFactory | None,
    allow_private_network_access: bool,
    **params: Any,
) -> httpx.Response:
    """`httpx.AsyncClient.request(**params)` on a fresh client, vetted unless private
    network access is allowed. ValueError: the URL was refused."""
    verify = params.pop("verify", True)
    _check_client_certificate(str(params.get("url", "")), verify, httpx_client_factory)
    own_client = httpx_client_factory is None
    client = (
        httpx.AsyncClient(timeout=DEFAULT_TIMEOUT, verify=verify)
        if httpx_client_factory is None
        else httpx_client_factory()
    )
    async with client:
        if allow_private_network_access:
            return await _request(client, **params)
        target = await _vet(str(params.get("url", "")), client, own_client)
        params.pop("follow_redirects", None)
        if target.addresses is None:
            return await _request(client, follow_redirects=False, **params)
        return await _send_pinned(client, target, params)


async def _request(
    client: httpx.AsyncClient, *, follow_redirects: Any = httpx.USE_CLIENT_DEFAULT, **params: Any
) -> httpx.Response:
    """`client.request(**params)`, its cookies set on the request and raw text or bytes
    given as `content` (the same bytes: httpx deprecates both spellings, with a
    warning on every call)."""
    if isinstance(params.get("data"), (str, bytes)):
        params["content"] = params.pop("data")
    return await client.send(client.build_request(**params), follow_redirects=follow_redirects)
