"""URL checks shared by the tools that open a URL the model supplied, as google-adk 2.13's.

Runs on: activity side (the tool-call activity: it resolves names). load_web_page and
the OpenAPI tools (RestApiTool) refuse, with a ValueError whose text the tool reports,
a URL whose scheme is not http(s), whose host is a local or internal name
(`localhost`, `*.local`, `*.internal`, `metadata.goog`, ...) or any of whose addresses
is not globally routable (an IPv4 address embedded in an IPv6 one included). A name
is resolved once here and the request then goes to the vetted address itself (the
callers pin it), so a DNS answer that changes in between cannot redirect it. Through
a proxy (the environment's, as requests reads it) the proxy resolves the name: the
name is checked lexically and, best effort, against the local resolver.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import socket
from urllib.parse import ParseResult, urlparse

from requests.utils import get_environ_proxies, select_proxy

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_SCHEMES = frozenset({"http", "https"})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_BLOCKED_NAMES = frozenset({"localhost", "metadata", "metadata.goog"})
_BLOCKED_SUFFIXES = (".localhost", ".local", ".internal", ".metadata.goog")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


@dataclasses.dataclass(frozen=True)
class RequestTarget:
    parsed_url: ParseResult
    scheme: str
    hostname: str
    host_header: str  # the name (and a port other than the scheme's), as sent


def format_host(hostname: str) -> str:
    """An IPv6 address in brackets, as a URL or a Host header holds it."""
    return f"[{hostname}]" if ":" in hostname else hostname


def parse_request_target(url: str) -> RequestTarget:
    """ValueError for a scheme other than http(s), no host or a bad port."""
    parsed = urlparse(url)
    scheme = parsed.scheme.lower()
    if scheme not in _SCHEMES:
        raise ValueError(f"Unsupported url scheme: {url}")
    hostname = parsed.hostname
    if not hostname:
        raise ValueError(f"URL is missing a hostname: {url}")
    try:
        port = parsed.port
    except ValueError as error:
        raise ValueError(f"Invalid url port: {url}") from error
    host_header = format_host(hostname)
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        host_header = f"{host_header}:{port}"
    return RequestTarget(parsed, scheme, hostname, host_header)


def ip_literal(hostname: str) -> Address | None:
    try:
        return ipaddress.ip_address(hostname)
    except ValueError:
        return None


def blocked_name(hostname: str) -> bool:
    """Lexical, so it holds through a proxy too (which resolves the name itself)."""
    name = hostname.rstrip(".").lower()
    return name in _BLOCKED_NAMES or name.endswith(_BLOCKED_SUFFIXES)


def _embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 target an IPv6 address carries (mapped, 6to4, NAT64, compatible):
    `is_global` of the IPv6 address says nothing about it (64:ff9b::169.254.169.254
    is "global" and reaches the metadata endpoint through NAT64)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    low = int(address) & 0xFFFFFFFF
    if address in _NAT64 or (int(address) >> 32 == 0 and low not in (0, 1)):
        return ipaddress.IPv4Address(low)
    return None


def blocked_address(address: Address) -> bool:
    embedded = _embedded_ipv4(address)
    return not address.is_global or (embedded is not None and not embedded.is_global)


def resolve(hostname: str) -> tuple[Address, ...]:
    """The name's addresses (an IP literal is its own); ValueError if none."""
    literal = ip_literal(hostname)
    if literal is not None:
        return (literal,)
    try:
        infos = socket.getaddrinfo(
            hostname, None, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )
    except (socket.gaierror, UnicodeError) as error:
        raise ValueError(f"Unable to resolve host: {hostname}") from error
    addresses = [
        ipaddress.ip_address(info[4][0])
        for info in infos
        if info[0] in (socket.AF_INET, socket.AF_INET6)
    ]
    if not addresses:
        raise ValueError(f"Unable to resolve host: {hostname}")
    return tuple(addresses)


def resolve_direct(hostname: str) -> tuple[Address, ...]:
    """The addresses to connect to, each once; ValueError if any is blocked."""
    addresses = tuple(dict.fromkeys(resolve(hostname)))
    if any(blocked_address(a) for a in addresses):
        raise ValueError(f"Blocked host: {hostname}")
    return addresses


def check_proxied(hostname: str) -> None:
    """Advisory, for a name a proxy resolves: refused if it resolves here to a blocked
    address. A local resolution failure is not an error (split-horizon DNS and
    egress-only networks leave the proxy the only resolver); `blocked_name` covers
    those."""
    try:
        addresses = resolve(hostname)
    except ValueError:
        return
    if any(blocked_address(a) for a in addresses):
        raise ValueError(f"Blocked host: {hostname}")


def proxy_url(url: str) -> str | None:
    """The environment's proxy for this URL (HTTP(S)_PROXY, ALL_PROXY, NO_PROXY), as
    requests picks it."""
    proxy: str | None = select_proxy(url, get_environ_proxies(url))
    return proxy
