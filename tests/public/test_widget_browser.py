"""The embeddable widget end to end in headless Chromium against a real server.

Needs Debian's Chromium (``apt-get install -y chromium``) and Playwright for
Python (``pip install playwright``; never ``playwright install``: the browser
comes from the system). Screenshots land in ``test-output/`` for a human to look at.
"""
from __future__ import annotations

import json
import re
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.browser import OUTPUT, browser  # noqa: F401 (the fixture)
from tests.public.conftest import PUBLIC_ENV

# The mark makes pytest-django create the test database. Playwright's sync API keeps an event
# loop running in this thread, where Django refuses database calls, so the browser is started
# per test, after the database fixtures, and these tests read the database only through the server.
pytestmark = pytest.mark.django_db
QUESTION = "Berapa lama Badan Publik wajib menjawab permintaan informasi publik?"
TIMEOUT_MS = 20_000

# Records every status label the widget shows, however briefly: the widget announces each one.
WATCH_LABELS = """() => {
  window.__labels = [];
  document.querySelector('#acehrag-chat-widget')
    .addEventListener('acehrag:phase', e => window.__labels.push(e.detail.label));
}"""


class PartnerSite:
    """Another origin (its own loopback port, so Chromium's local-network checks stay out of the
    way) serving a page that embeds the widget from the Aceh RAG server."""

    def __init__(self) -> None:
        outer = self
        self.page_html = ""

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server naming)
                found = self.path == "/"
                data = outer.page_html.encode() if found else b""
                self.send_response(200 if found else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "PartnerSite":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def partner_site(live_server_factory, corpus):
    """A partner page and a server that lists the partner's origin (started before the browser)."""
    with PartnerSite() as site:
        site.server = live_server_factory(**{**PUBLIC_ENV, "ACEH_RAG_PUBLIC_CHAT__ALLOWED_ORIGINS": site.origin})
        site.page_html = (
            "<!doctype html><html><head><meta charset='utf-8'><link rel='icon' href='data:,'><title>Dinas Mitra</title>"
            "</head><body><h1>Dinas Mitra</h1><p>Halaman mitra yang memasang widget.</p>"
            f"<script src='{site.server.url}/widget.js' data-lang='en' defer></script></body></html>"
        )
        yield site


def widget_state(page, server, storage: str | None = None) -> dict:
    """What the widget stored: the visitor's part (localStorage) and this tab's conversation (sessionStorage),
    or one of them when ``storage`` names it."""
    read = lambda name: json.loads(page.evaluate(f"() => {name}.getItem('acehrag-chat:{server.url}')") or "{}")
    if storage:
        return read(storage)
    return {**read("localStorage"), **read("sessionStorage")}


def widget(page):
    """The widget's shadow root (Playwright's CSS locators pierce open shadow roots)."""
    return page.locator("#acehrag-chat-widget")


def ask(page, question: str) -> None:
    widget(page).locator("textarea").fill(question)
    widget(page).locator("textarea").press("Enter")


def test_widget_streams_a_cited_answer_and_keeps_the_conversation(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="id-ID")
    page = context.new_page()
    page_errors: list[str] = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    page.goto(server.url + "/widget")

    # Given the page with the closed bubble, when the visitor opens it and asks,
    bubble = widget(page).locator(".bubble")
    bubble.click()
    assert widget(page).locator(".panel").is_visible()
    assert "Tanyakan tentang qanun" in widget(page).locator(".greeting").inner_text()
    page.evaluate(WATCH_LABELS)
    with page.expect_response(lambda r: r.url.endswith("/api/public/rag/chat")) as chat:
        ask(page, QUESTION)
    assert chat.value.headers["content-type"].startswith("text/event-stream")

    # then the answer streams in with its sources and follow-up questions.
    widget(page).locator(".suggestion").first.wait_for(timeout=TIMEOUT_MS)
    answer = widget(page).locator(".msg.bot:not(.greeting)").last
    assert "10 (sepuluh) hari kerja" in answer.inner_text()
    assert page.evaluate("() => window.__labels").count("Mencari dokumen…") >= 1
    sources = answer.locator("li.source")
    assert sources.count() >= 1
    first_link = sources.first.locator("a.title")
    assert "/api/public/rag/sources/" in first_link.get_attribute("href")
    assert first_link.inner_text().strip()
    assert re.search(r"hlm\. \d+", answer.locator(".sources").inner_text())
    assert "Pasal 22" in answer.locator(".sources").inner_text()
    assert answer.locator("a.cite").count() >= 1 and "[chunk:" not in answer.inner_text()
    assert widget(page).locator(".pending").count() == 0
    page.screenshot(path=str(OUTPUT / "widget-desktop.png"))

    # A source link opens the cited passage in place.
    sources.last.locator("a.title").click()
    sources.last.locator(".excerpt").wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function("() => !document.querySelector('#acehrag-chat-widget').shadowRoot"
                           ".querySelector('.excerpt').textContent.startsWith('Memuat')", timeout=TIMEOUT_MS)
    assert "Badan Publik" in sources.last.locator(".excerpt").inner_text()
    page.screenshot(path=str(OUTPUT / "widget-desktop-source.png"))

    # A suggestion continues the same conversation.
    state = widget_state(page, server)
    assert state["visitorId"] and state["sessionId"] and state["conversationId"]
    suggestion = widget(page).locator(".suggestion").first.inner_text()
    widget(page).locator(".suggestion").first.click()
    widget(page).locator(".msg.user", has_text=suggestion).wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function("() => document.querySelector('#acehrag-chat-widget').shadowRoot"
                           ".querySelectorAll('.msg.bot:not(.greeting):not(.pending)').length === 2", timeout=TIMEOUT_MS)
    assert widget_state(page, server)["conversationId"] == state["conversationId"]

    # The transcript and the ids survive a reload.
    page.reload()
    widget(page).locator(".msg.user").nth(1).wait_for(timeout=TIMEOUT_MS)
    assert widget(page).locator(".msg.user").first.inner_text() == QUESTION
    assert widget(page).locator(".msg.bot:not(.greeting)").count() == 2
    assert widget_state(page, server)["visitorId"] == state["visitorId"]
    widget(page).locator(".msg.bot:not(.greeting)").last.scroll_into_view_if_needed()
    page.screenshot(path=str(OUTPUT / "widget-desktop-followup.png"))

    # The conversation belongs to the tab: a second tab starts empty, as the same visitor in the same language.
    assert set(widget_state(page, server, "localStorage")) <= {"lang", "visitorId"}
    assert widget_state(page, server, "sessionStorage")["conversationId"] == state["conversationId"]
    other = context.new_page()
    other.goto(server.url + "/widget")
    widget(other).locator(".bubble").click()
    assert widget(other).locator(".greeting").is_visible()
    assert widget(other).locator(".msg.user").count() == 0
    assert widget_state(other, server).get("conversationId") is None
    assert widget_state(other, server)["visitorId"] == state["visitorId"]
    other.close()
    assert widget(page).locator(".msg.user").count() == 2

    # English toggle.
    widget(page).locator("button.lang").click()
    assert widget(page).locator("textarea").get_attribute("placeholder") == "Type your question…"
    assert widget(page).locator(".sources h4").first.text_content() == "Sources"
    widget(page).locator("button.lang").click()

    # A conversation the server does not know becomes a friendly error, then a fresh start.
    page.evaluate(f"""() => {{
      const key = 'acehrag-chat:{server.url}';
      const s = JSON.parse(sessionStorage.getItem(key)); s.conversationId = '{uuid.uuid4()}';
      sessionStorage.setItem(key, JSON.stringify(s));
    }}""")
    page.reload()
    ask(page, "Apa itu zakat?")
    error = widget(page).locator(".msg.error[role=alert]")
    error.wait_for(timeout=TIMEOUT_MS)
    assert "Percakapan sebelumnya tidak ditemukan" in error.inner_text()
    assert widget_state(page, server).get("conversationId") is None
    page.screenshot(path=str(OUTPUT / "widget-desktop-error.png"))
    ask(page, QUESTION)
    page.wait_for_function("() => document.querySelector('#acehrag-chat-widget').shadowRoot"
                           ".querySelectorAll('.msg.bot:not(.greeting):not(.pending)').length === 3", timeout=TIMEOUT_MS)
    assert widget_state(page, server)["conversationId"] not in (None, state["conversationId"])
    assert not page_errors, page_errors
    context.close()


def test_widget_fits_a_phone(server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale="id-ID")
    page = context.new_page()
    page.goto(server.url + "/widget")
    page.screenshot(path=str(OUTPUT / "widget-phone-closed.png"))
    widget(page).locator(".bubble").tap()
    panel = widget(page).locator(".panel").bounding_box()
    assert (panel["x"], panel["y"], panel["width"], panel["height"]) == (0, 0, 390, 844)
    assert not widget(page).locator(".bubble").is_visible()  # the full-screen panel replaces the bubble
    ask(page, QUESTION)
    widget(page).locator(".suggestion").first.wait_for(timeout=TIMEOUT_MS)
    answer = widget(page).locator(".msg.bot:not(.greeting)").last
    assert answer.locator("li.source").count() >= 1
    # Nothing overflows sideways on a narrow screen.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    messages = widget(page).locator(".messages")
    assert messages.evaluate("m => m.scrollWidth <= m.clientWidth")
    page.screenshot(path=str(OUTPUT / "widget-phone.png"))
    messages.evaluate("m => { m.scrollTop = m.scrollHeight; }")
    page.screenshot(path=str(OUTPUT / "widget-phone-suggestions.png"))
    widget(page).locator("button.close").tap()
    assert widget(page).locator(".bubble").is_visible() and not widget(page).locator(".panel").is_visible()
    context.close()


def test_widget_embeds_on_an_allowed_partner_site(partner_site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(partner_site.origin + "/")
    widget(page).locator(".bubble").click()
    # data-lang="en" on the script tag chooses the first language.
    assert widget(page).locator("textarea").get_attribute("placeholder") == "Type your question…"
    with page.expect_response(lambda r: r.url == partner_site.server.url + "/api/public/rag/chat") as chat:
        ask(page, "Berapa upah minimum sektoral perkebunan kelapa sawit di Aceh tahun 2026?")
    headers = chat.value.headers
    assert headers["access-control-allow-origin"] == partner_site.origin
    assert headers["content-type"].startswith("text/event-stream")
    widget(page).locator(".suggestion").first.wait_for(timeout=TIMEOUT_MS)
    answer = widget(page).locator(".msg.bot:not(.greeting)").last
    assert answer.locator("li.source").count() >= 1
    assert widget(page).locator(".sources h4").first.text_content() == "Sources"
    # The conversation is kept per widget server in the partner page's storage.
    assert widget_state(page, partner_site.server)["conversationId"]
    page.screenshot(path=str(OUTPUT / "widget-partner-site.png"))
    context.close()


def test_widget_shows_a_refusal_as_a_normal_answer_with_its_pointer(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="id-ID")
    page = context.new_page()
    page.goto(server.url + "/widget")
    widget(page).locator(".bubble").click()
    # Given a corpus that sets the provincial minimum wage for 2026 only, when the visitor asks about 2019,
    ask(page, "Berapa UMP Aceh tahun 2019?")
    page.wait_for_function("() => document.querySelector('#acehrag-chat-widget').shadowRoot"
                           ".querySelectorAll('.msg.bot:not(.greeting):not(.pending)').length === 1", timeout=TIMEOUT_MS)
    # then the refusal reads as an ordinary answer bubble (not an error) that points to what the documents hold.
    answer = widget(page).locator(".msg.bot:not(.greeting)").last
    text = answer.inner_text()
    assert text.startswith("Maaf, saya tidak menemukan informasi") and "Dokumen yang tersedia memuat" in text
    assert "2026" in text and "tahun 2019" in text
    assert widget(page).locator(".msg.error").count() == 0 and answer.locator("li.source").count() == 0
    page.screenshot(path=str(OUTPUT / "widget-desktop-refusal.png"))
    context.close()
