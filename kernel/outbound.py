"""Outbound requests only where they belong: the guard for URLs that administrators register.

MCP sources, CKAN portals and the BPS API are URLs someone typed; the server
fetches them. Without a guard such a URL (or a redirect from it) reaches the
cloud metadata service (169.254.169.254), the database, Redis or anything
else on the server's own networks. ``outbound_url_check`` resolves the host
and refuses loopback, private, link-local, shared, multicast, reserved and
unspecified addresses unless ``ACEH_RAG_OUTBOUND__ALLOWED_NETWORKS`` lists
them (unset: none in production, loopback only in development, so local test
servers keep working). It runs when a source is registered (a 400 with the
reason) and before every request, redirects included; a redirect to another
host is refused. ``outbound_get`` adds the timeout and the response-size bound.

A model or embedding server (``ACEH_RAG_LLM__*``, ``ACEH_RAG_EMBEDDING__*``)
is the operator's own choice and is not checked. The check and the connection
resolve the name separately: a DNS server that answers differently within
that window (rebinding) is not caught here; the allow-list is the defence
for networks that must never be reached, a firewall the one for the rest.
"""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import httpx
from django.conf import settings

from kernel.errors import BadRequest

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))


class OutboundRefused(BadRequest):
    """A registered URL, or a redirect from it, points where the server must not go."""

    code = "outbound_address_refused"


def allowed_networks() -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    configured = settings.ACEH_RAG.outbound.allowed_networks
    if configured:
        return tuple(ipaddress.ip_network(n) for n in configured)
    return () if getattr(settings, "PRODUCTION", False) else LOOPBACK


def address_kind(address: IPAddress) -> str | None:
    """Why ``address`` is not a public one (``"loopback"``, ``"private"``, …), or None when it is."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    for kind in ("loopback", "link_local", "multicast", "unspecified", "reserved", "private"):
        if getattr(address, f"is_{kind}"):
            return kind.replace("_", "-")
    return None if address.is_global else "non-public"


def outbound_url_check(url: str) -> str:
    """Refuse ``url`` unless it is http(s) and every address its host resolves to may be reached; its host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OutboundRefused(f"{url!r} is not an http(s) URL with a host")
    host = parts.hostname
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        raise OutboundRefused(f"{host} cannot be resolved ({exc})") from None
    allowed = allowed_networks()
    for address in sorted({ipaddress.ip_address(info[4][0].split("%")[0]) for info in found}, key=str):
        kind = address_kind(address)
        if kind and not any(address in network for network in allowed if network.version == address.version):
            raise OutboundRefused(
                f"{host} resolves to {address}, a {kind} address: outbound requests may not go there "
                "(ACEH_RAG_OUTBOUND__ALLOWED_NETWORKS can allow a network)")
    return host


def redirect_check(origin_host: str, target: str) -> None:
    """A redirect stays on the registered host and passes the address check."""
    if urlsplit(target).hostname != origin_host:
        raise OutboundRefused(f"{origin_host} redirected off its host to {urlsplit(target).hostname or target!r}")
    outbound_url_check(target)


@dataclass(frozen=True)
class OutboundResponse:
    status_code: int
    content: bytes
    url: str


def outbound_get(client: httpx.Client, url: str, *, params: dict | None = None, headers: dict | None = None,
                 timeout: float) -> OutboundResponse:
    """GET ``url`` through the guard: each hop checked, at most ``max_redirects`` on the same host, the body
    read up to ``max_response_bytes``. ``client`` must not follow redirects itself. Raises ``OutboundRefused``
    or httpx's errors."""
    bounds = settings.ACEH_RAG.outbound
    host = outbound_url_check(url)
    request = client.build_request("GET", url, params=params, headers=headers, timeout=timeout)
    for _ in range(bounds.max_redirects + 1):
        response = client.send(request, stream=True, follow_redirects=False)
        try:
            if not response.is_redirect:
                return OutboundResponse(response.status_code, _bounded_body(response, bounds.max_response_bytes),
                                        str(request.url))
            target = urljoin(str(request.url), response.headers["Location"])
        finally:
            response.close()
        redirect_check(host, target)
        request = client.build_request("GET", target, headers=headers, timeout=timeout)
    raise OutboundRefused(f"{host} redirected more than {bounds.max_redirects} times")


def declared_size_check(declared: str) -> None:
    """Refuse an answer whose ``Content-Length`` is over ``ACEH_RAG_OUTBOUND__MAX_RESPONSE_BYTES``."""
    limit = settings.ACEH_RAG.outbound.max_response_bytes
    if declared.isdigit() and int(declared) > limit:
        raise OutboundRefused(f"the answer is {int(declared):,} bytes, over the {limit:,}-byte limit")


def _bounded_body(response: httpx.Response, limit: int) -> bytes:
    declared_size_check(response.headers.get("Content-Length", ""))
    body = bytearray()
    for chunk in response.iter_bytes():
        body += chunk
        if len(body) > limit:
            raise OutboundRefused(f"the answer is over the {limit:,}-byte limit")
    return bytes(body)
