"""First contact in a real browser: the admin, /docs, /redoc and the landing page render styled.

A real uvicorn server (static files collected as `serve` does, served by whitenoise) and
headless Debian Chromium. Every page must load all its stylesheets and scripts (no failed
request, no 4xx/5xx), apply them (computed styles), and render what a user came for.
"""
from __future__ import annotations

import pytest

from tests.browser import OUTPUT, browser  # noqa: F401 (the fixture)
from tests.conftest import TEST_API_KEY

pytestmark = pytest.mark.django_db
ADMIN_USER, ADMIN_PASSWORD = "first-contact-admin", "kata-sandi-uji-123"
DOCUMENT_TITLE = "Qanun Aceh Nomor 7 Tahun 2024 tentang Uji Tampilan Admin"
TIMEOUT_MS = 20_000
TRANSPARENT = "rgba(0, 0, 0, 0)"


@pytest.fixture(scope="module")
def admin_data(django_db_setup, django_db_blocker):
    """An administrator and one document, committed for the server process to read."""
    from django.contrib.auth.models import User

    from tests.conftest import purge_committed_corpus
    from tests.factories import make_document

    with django_db_blocker.unblock():
        User.objects.filter(username=ADMIN_USER).delete()
        User.objects.create_superuser(ADMIN_USER, "admin@example.org", ADMIN_PASSWORD)
        document = make_document(title=DOCUMENT_TITLE, chunks=[
            "Pemerintah Aceh mengumumkan ringkasan anggaran kepada masyarakat setiap tahun.",
            "Laporan disampaikan paling lambat 30 (tiga puluh) hari setelah tahun anggaran berakhir."])
    yield document
    with django_db_blocker.unblock():
        User.objects.filter(username=ADMIN_USER).delete()
        purge_committed_corpus()


@pytest.fixture
def server(live_server_factory, admin_data):
    return live_server_factory()


# Redoc's "powered by" logo is an <img> from its CDN, hidden by its own onError when offline (as here).
ALLOWED_OFF_ORIGIN = {"https://cdn.redoc.ly/redoc/logo-mini.svg"}


class PageWatch:
    """Every failed request and every error response a page caused; every request stays on the server."""

    def __init__(self, page, origin: str):
        self.failures: list[str] = []
        self.static: list[str] = []
        page.on("request", lambda r: self._off_origin(r.url, origin))
        page.on("requestfailed", lambda r: r.url in ALLOWED_OFF_ORIGIN or self.failures.append(f"{r.url}: {r.failure}"))
        page.on("response", self._response)
        page.on("pageerror", lambda e: self.failures.append(f"page error: {e}"))

    def _off_origin(self, url: str, origin: str) -> None:
        if not url.startswith((origin, "data:", f"blob:{origin}")) and url not in ALLOWED_OFF_ORIGIN:
            self.failures.append(f"{url}: requested from another origin")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.failures.append(f"{response.url}: HTTP {response.status}")
        if "/static/" in response.url:
            self.static.append(response.url)

    def assert_clean(self) -> None:
        assert not self.failures, self.failures


def style(page, selector: str, prop: str) -> str:
    return page.eval_on_selector(selector, f"e => getComputedStyle(e).getPropertyValue('{prop}')")


def test_admin_login_documents_and_view_site_are_styled(server, admin_data, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="id-ID")
    page = context.new_page()
    watch = PageWatch(page, server.url)

    page.goto(server.url + "/admin/login/")
    # The admin's own stylesheet applied: the header has its colour, the form its layout.
    assert style(page, "#header", "background-color") not in ("", TRANSPARENT)
    assert style(page, "#content-main, #content", "display") != "inline"
    assert page.evaluate("() => [...document.styleSheets].every(s => s.cssRules.length > 0)")
    assert "Aceh RAG" in page.locator("#site-name").inner_text()
    assert page.title().endswith("Aceh RAG")
    page.screenshot(path=str(OUTPUT / "admin-login.png"))

    page.fill("#id_username", ADMIN_USER)
    page.fill("#id_password", ADMIN_PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(server.url + "/admin/")
    assert page.locator("#site-name").inner_text().strip() == "Aceh RAG administration"
    assert style(page, "#header", "background-color") not in ("", TRANSPARENT)
    assert page.locator("#user-tools a[href='/']").text_content().strip() == "View site"  # the admin is in English (LANGUAGE_CODE)
    page.screenshot(path=str(OUTPUT / "admin-index.png"), full_page=True)

    page.goto(server.url + "/admin/retrieval/document/")
    rows = page.locator("#result_list tbody tr")
    assert rows.count() >= 1
    assert style(page, "#result_list", "border-collapse") == "collapse"
    page.screenshot(path=str(OUTPUT / "admin-documents.png"), full_page=True)
    page.locator("#result_list tbody tr th a, #result_list tbody tr td a").first.click()
    page.wait_for_url(f"**/admin/retrieval/document/{admin_data.pk}/change/")
    assert DOCUMENT_TITLE in page.content()
    assert style(page, "div.form-row, fieldset", "border-bottom-style") != ""
    page.screenshot(path=str(OUTPUT / "admin-document.png"), full_page=True)

    # "View site" goes to the landing page, which links to the docs, the admin and the widget.
    page.goto(server.url + "/admin/")
    page.locator("#user-tools a[href='/']").click()
    page.wait_for_url(server.url + "/")
    links = page.eval_on_selector_all("a.card", "as => as.map(a => a.getAttribute('href'))")
    assert links == ["/docs", "/redoc", "/admin/", "/widget"]
    assert "deterministic" in page.locator("dl").inner_text()
    assert style(page, "header", "background-color") not in ("", TRANSPARENT)
    page.screenshot(path=str(OUTPUT / "landing.png"), full_page=True)

    assert any("/static/admin/css/base." in url for url in watch.static), watch.static
    watch.assert_clean()
    context.close()


def test_docs_and_redoc_load_their_assets_and_render_every_operation(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    watch = PageWatch(page, server.url)

    page.goto(server.url + "/docs")
    page.locator(".swagger-ui .opblock").first.wait_for(timeout=TIMEOUT_MS)
    operations = page.eval_on_selector_all(
        ".opblock", "bs => bs.map(b => b.querySelector('.opblock-summary-method').textContent + ' '"
                    " + b.querySelector('.opblock-summary-path').getAttribute('data-path'))")
    for expected in ("POST /query", "POST /query/stream", "POST /query/v2", "POST /search",
                     "POST /api/public/rag/chat", "GET /conversations/{conversation_id}"):
        assert expected in operations, operations
    # Swagger's stylesheet applied: the method badge is coloured, the layout is Swagger's font.
    assert style(page, ".opblock-post .opblock-summary-method", "background-color") not in ("", TRANSPARENT)
    assert "sans-serif" in style(page, ".swagger-ui .info .title", "font-family")
    info = page.locator(".swagger-ui .info").inner_text()
    assert "Answerer" in info and "Embedder" in info
    assert page.locator(".swagger-ui .auth-wrapper .authorize").is_visible()
    page.screenshot(path=str(OUTPUT / "docs.png"))
    # A partner authorises with the key and runs the default /query body: an answer, not a 404.
    page.locator(".auth-wrapper .authorize").click()
    page.locator(".modal-ux input[type=text], .modal-ux input[type=password]").first.fill(TEST_API_KEY)
    page.locator(".modal-ux .auth-btn-wrapper .authorize").first.click()
    page.locator(".modal-ux .btn-done, .modal-ux button.close-modal").first.click()
    query = page.locator("#operations-answering-answering_api_query")
    query.locator(".opblock-summary").click()
    query.locator(".try-out__btn").click()
    query.locator(".execute").click()
    status = query.locator(".live-responses-table tr.response .response-col_status").first
    status.wait_for(timeout=TIMEOUT_MS)
    assert status.inner_text().strip() == "200"
    assert '"grounding_rate"' in query.locator(".live-responses-table .highlight-code").first.inner_text()
    query.scroll_into_view_if_needed()
    page.screenshot(path=str(OUTPUT / "docs-query.png"), full_page=False)

    page.goto(server.url + "/redoc")
    page.locator("h2", has_text="Cited answer as JSON").first.wait_for(timeout=TIMEOUT_MS)
    assert page.locator(".menu-content").count() == 1  # the navigation column rendered
    assert page.locator("h2", has_text="Public chat answer").count() >= 1
    page.screenshot(path=str(OUTPUT / "redoc.png"))

    assert {url.split("/static/")[1].split(".")[0] for url in watch.static} >= {
        "ninja/swagger-ui", "ninja/swagger-ui-bundle", "ninja/redoc"}, watch.static
    watch.assert_clean()
    context.close()


def test_hashed_static_files_are_cached_and_compressed(server):
    import re

    import httpx

    page = httpx.get(server.url + "/docs").text
    css = re.search(r'href="(/static/ninja/swagger-ui\.[0-9a-f]{12}\.css)"', page)
    assert css, "the docs page does not link a hashed stylesheet"
    response = httpx.get(server.url + css.group(1), headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/css")
    assert "immutable" in response.headers["cache-control"] and "max-age=315360000" in response.headers["cache-control"]
    assert response.headers.get("content-encoding") == "gzip"
    assert httpx.get(server.url + "/static/ninja/no-such-file.css").status_code == 404
