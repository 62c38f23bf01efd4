"""How the widget reads: Markdown answers (lists, per-Pasal headings) sanitised, text that grows while it
streams, a copy button, a favicon. Headless Debian Chromium against a real server.

The rendering tests hand the widget a fixed stream in the seed's protocol (``start``, ``delta``…,
``phase``, ``done``) through Playwright's request routing, delivered in one piece as a buffering
proxy or a fast answer would; the last test reads a real answer from the real pipeline.
"""
from __future__ import annotations

import json

import pytest

from tests.browser import OUTPUT, browser  # noqa: F401 (the fixture)
from tests.public.test_widget_browser import QUESTION, TIMEOUT_MS, ask, widget

pytestmark = pytest.mark.django_db

HEADING = "Peraturan Gubernur Aceh Nomor 24 Tahun 2025 Pasal 8"
REPLY = (
    "Pemilihan Tenaga Profesional dilaksanakan oleh Kepala Sekretariat [1].\n\n"
    f"**{HEADING}**\n"
    "1. Pemilihan Tenaga Profesional BMA dilaksanakan oleh Kepala Sekretariat BMA [1].\n"
    "2. Pemilihan dilaksanakan paling lambat 3 (tiga) bulan sebelum masa keanggotaan berakhir [1].\n"
    "3. Hasil pemilihan ditetapkan dengan Keputusan Gubernur [2].\n\n"
    "- a. syarat umum;\n- b. syarat khusus.\n\n"
    '<img src=x onerror="window.__xss = 1"> <script>window.__xss = 2</script>'
)
SOURCE = {"kind": "chunk", "document_id": "7f0b7f0c-0000-4000-8000-000000000001", "chunk_id": "7f0b7f0c-0000-4000-8000-000000000002",
          "document_title": "Peraturan Gubernur Aceh Nomor 24 Tahun 2025 tentang Tenaga Profesional Baitul Mal Aceh",
          "chunk_ordinal": 8, "page_number": 4, "section_path": ["BAB III", "Pasal 8"],
          "legal_reference": HEADING, "char_start": 0, "char_end": 10}
SOURCES = [SOURCE, {**SOURCE, "chunk_id": "7f0b7f0c-0000-4000-8000-000000000003", "legal_reference": HEADING + " ayat (3)"}]

# Samples the widget at every animation frame: how much streamed text was on screen, and whether the
# finished answer (with its sources) had replaced it yet.
WATCH_FRAMES = """() => {
  window.__frames = [];
  const root = document.querySelector('#acehrag-chat-widget').shadowRoot;
  (function tick() {
    const streaming = root.querySelector('.msg.bot.pending .body');
    const finished = root.querySelectorAll('.msg.bot:not(.greeting):not(.pending)').length;
    window.__frames.push({ streamed: streaming ? streaming.textContent.length : -1, finished });
    requestAnimationFrame(tick);
  })();
}"""


def sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def scripted_stream(reply: str) -> str:
    pieces = [reply[i:i + 60] for i in range(0, len(reply), 60)]
    done = {"ok": True, "reply": reply, "conversationId": "3f0c2a8e-1b7d-4c55-9a1e-6d2b8f4e7a10", "visitorId": "v-test",
            "sessionId": "s-test", "sources": SOURCES, "route": {"mode": "rag", "reason": "grounded"}, "sql": None,
            "suggestions": [], "cards": [], "projectName": "Aceh RAG", "greeting": None}
    return (sse("start", {"ok": True}) + sse("phase", {"name": "searching"})
            + "".join(sse("delta", {"text": piece}) for piece in pieces)
            + sse("phase", {"name": "finalizing"}) + sse("done", done))


def open_with_scripted_answer(browser, server, reply: str, **context_options):  # noqa: F811
    context = browser.new_context(**{"viewport": {"width": 1400, "height": 900}, "locale": "id-ID", **context_options})
    page = context.new_page()
    page.route(server.url + "/api/public/rag/chat", lambda route: route.fulfill(
        status=200, headers={"Content-Type": "text/event-stream; charset=utf-8"}, body=scripted_stream(reply)))
    page.goto(server.url + "/widget")
    widget(page).locator(".bubble").click()
    return context, page


def finished_answer(page):
    page.wait_for_function("() => document.querySelector('#acehrag-chat-widget').shadowRoot"
                           ".querySelectorAll('.msg.bot:not(.greeting):not(.pending)').length === 1", timeout=TIMEOUT_MS)
    return widget(page).locator(".msg.bot:not(.greeting)").last


def test_widget_renders_lists_headings_and_citations_and_drops_html(server, browser):  # noqa: F811
    context, page = open_with_scripted_answer(browser, server, REPLY)
    ask(page, "Siapa yang melaksanakan pemilihan Tenaga Profesional BMA?")
    answer = finished_answer(page)

    # The numbered ayat are an ordered list, the huruf a bulleted one: list items, not text with dashes.
    ordered = answer.locator(".body ol > li")
    assert ordered.count() == 3
    assert ordered.first.inner_text().startswith("Pemilihan Tenaga Profesional BMA")
    assert answer.locator(".body ul > li").all_inner_texts() == ["a. syarat umum;", "b. syarat khusus."]
    # The bold line above them is the Pasal's heading.
    assert answer.locator(".body h4.heading").all_inner_texts() == [HEADING]
    # Citation markers are chips to the numbered sources.
    assert answer.locator(".body a.cite").count() == 4
    assert "[2]" in answer.locator(".body ol > li").nth(2).inner_text()
    # Markup in the answer text never becomes markup on the page.
    assert answer.locator("img, script").count() == 0
    assert page.evaluate("() => window.__xss") is None
    page.screenshot(path=str(OUTPUT / "widget-markdown-list.png"))
    context.close()


def test_widget_shows_text_growing_before_the_answer_is_done(server, browser):  # noqa: F811
    # Given a stream whose frames all arrive in one read,
    context, page = open_with_scripted_answer(browser, server, REPLY)
    page.evaluate(WATCH_FRAMES)
    ask(page, "Siapa yang melaksanakan pemilihan Tenaga Profesional BMA?")
    finished_answer(page)
    frames = page.evaluate("() => window.__frames")
    # then painted frames showed part of the text before the finished answer replaced it, and it grew
    # (not strictly: a half-received "**" shows until its closing pair arrives).
    before_done = [f["streamed"] for f in frames if f["finished"] == 0 and f["streamed"] > 0]
    assert before_done, "no frame showed streamed text before done"
    assert len(set(before_done)) >= 3 and before_done[0] < len(REPLY) // 4 < before_done[-1]
    context.close()


def test_widget_copies_an_answer_with_its_sources(server, browser):  # noqa: F811
    context, page = open_with_scripted_answer(browser, server, REPLY)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    ask(page, "Siapa yang melaksanakan pemilihan Tenaga Profesional BMA?")
    answer = finished_answer(page)
    copy = answer.locator("button.copy")
    assert copy.get_attribute("aria-label") == "Salin jawaban beserta sumbernya"
    copy.focus()
    page.keyboard.press("Enter")   # keyboard-usable
    page.wait_for_function("() => document.querySelector('#acehrag-chat-widget').shadowRoot"
                           ".querySelector('button.copy').textContent === 'Disalin'", timeout=TIMEOUT_MS)
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith("Pemilihan Tenaga Profesional dilaksanakan oleh Kepala Sekretariat [1].")
    assert HEADING in copied and "**" not in copied
    assert f"[1] {SOURCE['document_title']} — {HEADING}, hlm. 4" in copied
    context.close()


def test_real_answers_render_their_pasal_headings_and_items(server, browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale="id-ID")
    page = context.new_page()
    favicon = page.request.get(server.url + "/favicon.ico")
    assert favicon.status == 200 and favicon.headers["content-type"] == "image/vnd.microsoft.icon"
    page.goto(server.url + "/widget")
    widget(page).locator(".bubble").click()
    page.evaluate(WATCH_FRAMES)
    with page.expect_response(lambda r: r.url.endswith("/api/public/rag/chat")) as chat:
        ask(page, QUESTION)
    answer = finished_answer(page)
    reply = json.loads(chat.value.text().rsplit("event: done\ndata: ", 1)[1].split("\n", 1)[0])["reply"]
    items = [line for line in reply.split("\n") if line.startswith("- ")]
    assert items, reply
    assert answer.locator(".body li").count() == len(items)
    assert answer.locator(".body h4.heading").count() >= 1
    assert not any(line.startswith("- ") for line in answer.locator(".body").inner_text().split("\n"))
    frames = page.evaluate("() => window.__frames")
    assert any(f["finished"] == 0 and f["streamed"] > 0 for f in frames)
    answer.scroll_into_view_if_needed()
    page.screenshot(path=str(OUTPUT / "widget-real-answer.png"))
    context.close()
