"""GET JSON from an allow-listed portal with a timeout and a TTL cache (the Django cache).

Every read goes through the outbound guard (kernel.outbound): each hop's address checked, redirects
only on the portal's own host, the body bounded.
"""
from __future__ import annotations

import hashlib
import json
import threading

import httpx
from django.core.cache import cache

from kernel.outbound import OutboundRefused, outbound_get


_client: httpx.Client | None = None
_client_lock = threading.Lock()


def _shared_client() -> httpx.Client:
    """One pooled client per process: a new client per read costs ~90 ms (its TLS context) before any byte is sent."""
    global _client
    with _client_lock:
        if _client is None:
            _client = httpx.Client(follow_redirects=False)
        return _client


class PortalError(Exception):
    """The portal failed, timed out or answered something that is not its API: the honest note's reason."""


def get_json(url: str, params: dict | None, *, timeout: float, ttl: int, headers: dict | None = None) -> dict:
    key = "livedata:http:" + hashlib.sha256(json.dumps([url, params], sort_keys=True).encode()).hexdigest()
    cached = cache.get(key) if ttl else None
    if cached is not None:
        return cached
    try:
        response = outbound_get(_shared_client(), url, params=params, timeout=timeout, headers=headers)
    except OutboundRefused as exc:
        raise PortalError(exc.message) from exc
    except httpx.TimeoutException as exc:
        raise PortalError(f"timed out after {timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise PortalError(f"unreachable ({type(exc).__name__})") from exc
    if response.status_code >= 400:
        raise PortalError(f"HTTP {response.status_code}")
    try:
        payload = json.loads(response.content)
    except ValueError as exc:
        raise PortalError("the answer is not JSON") from exc
    if not isinstance(payload, dict):
        raise PortalError("unexpected answer shape")
    if ttl:
        cache.set(key, payload, ttl)
    return payload
