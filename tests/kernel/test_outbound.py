"""Outbound requests only where they belong: blocked addresses at registration and at every call, redirects."""
from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.conf import settings
from django.test import override_settings

from kernel.outbound import OutboundRefused, outbound_url_check
from livedata.http import PortalError, get_json
from workspaces.mcp_client import McpEndpoint, McpUnavailable, mcp_tool_call
from workspaces.models import McpSource
from workspaces.services import mcp_source_add

BLOCKED = {
    "http://127.0.0.1:6379/": "loopback", "http://localhost:5432/": "loopback", "http://[::1]/": "loopback",
    "http://169.254.169.254/latest/meta-data/": "link-local", "http://10.0.0.5/api": "private",
    "http://192.168.1.1/": "private", "http://100.64.0.1/": "non-public", "http://224.0.0.1/": "multicast",
    "http://0.0.0.0:8000/": "unspecified", "http://[::ffff:169.254.169.254]/": "link-local",
}


def outbound(*, networks: tuple[str, ...] = (), production: bool = True, **bounds) -> override_settings:
    config = replace(settings.ACEH_RAG.outbound, allowed_networks=networks, **bounds)
    return override_settings(ACEH_RAG=replace(settings.ACEH_RAG, outbound=config), PRODUCTION=production)


@pytest.mark.parametrize("url, kind", BLOCKED.items())
def test_every_non_public_address_is_refused_in_production(url, kind):
    with outbound(), pytest.raises(OutboundRefused) as refused:
        outbound_url_check(url)
    assert f"a {kind} address" in refused.value.message and refused.value.http_status == 400


@pytest.mark.parametrize("url", ["file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "http:///nohost"])
def test_only_http_urls_with_a_host(url):
    with outbound(), pytest.raises(OutboundRefused, match="not an http"):
        outbound_url_check(url)


def test_development_allows_loopback_only_and_the_operator_can_allow_a_network():
    with outbound(production=False):
        assert outbound_url_check("http://127.0.0.1:8000/mcp") == "127.0.0.1"
        with pytest.raises(OutboundRefused, match="private"):
            outbound_url_check("http://10.0.0.5/api")
    with outbound(networks=("10.0.0.0/8",)):
        assert outbound_url_check("http://10.0.0.5/api") == "10.0.0.5"
        with pytest.raises(OutboundRefused, match="loopback"):
            outbound_url_check("http://127.0.0.1/")
    with outbound():
        assert outbound_url_check("http://8.8.8.8/") == "8.8.8.8"   # a public address (no request is sent)


@pytest.mark.django_db
def test_registering_a_blocked_mcp_source_is_a_clear_400_and_stores_nothing(admin_client):
    with outbound():
        with pytest.raises(OutboundRefused, match="169.254.169.254 resolves to 169.254.169.254, a link-local"):
            mcp_source_add(source_id="metadata", name="Metadata", url="http://169.254.169.254/mcp")
        page = admin_client.post("/admin/workspaces/mcpsource/add/", {
            "id": "redis", "name": "Redis", "url": "http://127.0.0.1:6379/mcp", "visibility": "public",
            "search_tool": "search", "allowed_tools": "[]", "timeout_seconds": "10", "enabled": "on", "headers": ""})
    assert page.status_code == 200 and "a loopback address" in page.content.decode()
    assert not McpSource.objects.exists()


def test_an_mcp_call_is_checked_again_when_it_is_made():
    # Registered while allowed; the allow-list changed since: the call is refused before any byte is sent.
    endpoint = McpEndpoint(source_id="internal", name="Internal", url="http://10.1.2.3:9000/mcp", headers=(),
                           timeout_seconds=5, visibility="public", tools=("search",), search_tool="search")
    with outbound(), pytest.raises(McpUnavailable, match="internal: 10.1.2.3 resolves to 10.1.2.3, a private"):
        mcp_tool_call(endpoint, "search", {"query": "zakat"})


@contextmanager
def portal(routes: dict[str, tuple[int, dict[str, str], bytes]]):
    """A loopback HTTP server answering GET ``path`` with (status, headers, body)."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            if self.command == "POST":
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status, headers, body = routes.get(self.path.split("?")[0], (404, {}, b"{}"))
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", "Content-Length": str(len(body)), **headers}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_GET  # noqa: N815

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def redirect(location: str) -> tuple[int, dict[str, str], bytes]:
    return 302, {"Location": location}, b""


def test_redirects_are_followed_on_the_same_host_only_and_rechecked():
    with portal({"/a": redirect("/b"), "/b": (200, {}, b'{"success": true}'), "/loop": redirect("/loop"),
                 "/metadata": redirect("http://169.254.169.254/latest/meta-data/iam")}) as host, \
            outbound(networks=("127.0.0.0/8",)):
        # Same host: followed, and the final answer read.
        assert get_json(f"{host}/a", None, timeout=5, ttl=0) == {"success": True}
        port = host.rsplit(":", 1)[1]
        with portal({"/other-name": redirect(f"http://localhost:{port}/b")}) as elsewhere:
            cases = ((f"{host}/metadata", "redirected off its host to '169.254.169.254'"),
                     (f"{elsewhere}/other-name", "redirected off its host to 'localhost'"),
                     (f"{host}/loop", "redirected more than 3 times"))
            for url, reason in cases:
                with pytest.raises(PortalError, match=reason):
                    get_json(url, None, timeout=5, ttl=0)


def test_a_portal_answer_over_the_size_bound_is_refused():
    body = json.dumps({"success": True, "result": "x" * 5000}).encode()
    with portal({"/big": (200, {}, body)}) as host, \
            outbound(networks=("127.0.0.0/8",), max_response_bytes=1000):
        with pytest.raises(PortalError, match="over the 1,000-byte limit"):
            get_json(f"{host}/big", None, timeout=5, ttl=0)


def test_a_blocked_portal_is_refused_before_any_request():
    with outbound(), pytest.raises(PortalError, match="a link-local address"):
        get_json("http://169.254.169.254/api/3/action/package_search", {"q": "x"}, timeout=5, ttl=0)


def test_an_mcp_answer_declared_over_the_size_bound_is_refused_before_it_is_read():
    body = json.dumps({"jsonrpc": "2.0", "id": 0, "result": {"padding": "x" * 5000}}).encode()
    with portal({"/mcp": (200, {}, body)}) as host, outbound(networks=("127.0.0.0/8",), max_response_bytes=1000):
        endpoint = McpEndpoint(source_id="besar", name="Besar", url=f"{host}/mcp", headers=(), timeout_seconds=5,
                               visibility="public", tools=("search",), search_tool="search")
        with pytest.raises(McpUnavailable, match="besar: the answer is .* bytes, over the 1,000-byte limit"):
            mcp_tool_call(endpoint, "search", {"query": "zakat"})
