"""The workbench in headless Chromium (Debian's /usr/bin/chromium) against a real uvicorn server.

Data is committed before the browser starts (Playwright's sync API keeps an event loop
running in this thread, where Django refuses database calls). Screenshots land in
``test-output/`` for a human to look at.
"""
from __future__ import annotations

import mimetypes
from pathlib import Path

import django.contrib.admin
import httpx
import pytest

from tests.answering.test_query_v2_contract import (  # noqa: F401 (the scripted model fixture)
    SEED_EXAMPLE, judge_by, no_framing_checkable, scripted, searching_then,
)
from tests.conftest import TEST_API_KEY
from tests.factories import make_document
from tests.public.conftest import PUBLIC_ENV
from tests.public.test_widget_browser import OUTPUT, TIMEOUT_MS, ask, browser, widget  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)
KEY = {"X-API-Key": TEST_API_KEY}
PASSWORD = "workbench-pass"
ADMIN_STATIC = Path(django.contrib.admin.__file__).parent / "static"
PPID = "PPID wajib menjawab permohonan informasi publik paling lambat 10 (sepuluh) hari kerja sejak permohonan diterima."
SECRET_TITLE = "Nota Dinas Rahasia Jadwal Audit PPID"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("editor", "editor@example.org", PASSWORD)


@pytest.fixture
def ppid_documents(staff):
    make_document(title="Qanun Keterbukaan Informasi", chunks=[PPID])
    make_document(title=SECRET_TITLE, confidential=True,
                  chunks=["Jadwal audit PPID rahasia: permohonan informasi diperiksa auditor internal setiap Senin."])


@pytest.fixture
def budget_document(staff):
    make_document(title="Qanun Anggaran Pendidikan",
                  chunks=["Anggaran pendidikan 2023 adalah Rp 5 miliar dan digunakan untuk rehabilitasi sekolah."])


def admin_page(browser, server):  # noqa: F811
    """A logged-in admin page. The admin's CSS is served from Django's own files when the
    server has no static file handler, so screenshots look like the admin people use."""
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    page = context.new_page()

    def static(route):
        path = ADMIN_STATIC / route.request.url.split("/static/", 1)[1].split("?")[0]
        if path.is_file():
            route.fulfill(path=str(path), content_type=mimetypes.guess_type(path.name)[0] or "application/octet-stream")
        else:
            route.continue_()

    page.route("**/static/**", static)
    page.goto(server.url + "/admin/login/?next=/admin/")
    page.fill("#id_username", "editor")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(server.url + "/admin/")
    return page


def test_retrieval_test_page_shows_what_each_caller_would_get(live_server_factory, ppid_documents, browser):  # noqa: F811
    live_server = live_server_factory()
    page = admin_page(browser, live_server)
    assert page.locator("#content-main .app-workbench a", has_text="Retrieval test").count() == 1
    page.click("#content-main .app-workbench a:has-text('Retrieval test')")
    page.fill("#id_query", "permohonan informasi PPID")
    page.select_option("#id_identity", "anonymous")
    page.click("#run-test")
    page.locator("#hits").wait_for(timeout=TIMEOUT_MS)
    hits = page.locator("#hits tr.rt-hit")
    assert hits.count() >= 1
    assert "Qanun Keterbukaan Informasi" in page.locator("#hits").inner_text()
    assert SECRET_TITLE not in page.locator("#hits").inner_text()
    first = hits.first.locator("td")
    assert "·" in first.nth(2).inner_text() and "·" in first.nth(3).inner_text() and "·" in first.nth(4).inner_text()
    assert page.locator("#lexical-tier").inner_text().strip()
    assert page.locator(".rt-timing", has_text="semantic").count() == 1
    page.screenshot(path=str(OUTPUT / "admin-retrieval-test-anonymous.png"), full_page=True)

    page.select_option("#id_identity", "admin")
    page.click("#run-test")
    page.locator("#results", has_text="verified admin").wait_for(timeout=TIMEOUT_MS)
    assert SECRET_TITLE in page.locator("#hits").inner_text()
    assert page.locator("#recent-tests li").count() == 2
    page.screenshot(path=str(OUTPUT / "admin-retrieval-test-admin.png"), full_page=True)
    # A hit links to its chunk's read-only page (the public document's hit: the admin also sees the confidential
    # one, and the two may rank either way).
    public_hit = page.locator("#hits tr.rt-hit", has_text="Qanun Keterbukaan Informasi").first
    public_hit.locator("td").nth(5).locator("a").first.click()
    assert page.locator("#chunk-toggle").inner_text().strip() == "Disable this chunk"
    assert page.locator("input[name=_save]").count() == 0
    page.screenshot(path=str(OUTPUT / "admin-chunk.png"), full_page=True)
    # The corpus screens: the document page (identity once, access explained, downloads) and its chunk list.
    page.locator("a", has_text="All chunks of this document").click()
    page.locator("#result_list").wait_for(timeout=TIMEOUT_MS)
    assert page.locator("#result_list td.field-preview").count() >= 1
    assert PPID in page.locator("#result_list").inner_text()
    page.screenshot(path=str(OUTPUT / "admin-chunk-list.png"), full_page=True)
    page.locator("h1 a").click()
    page.locator("fieldset", has_text="Identity card").wait_for(timeout=TIMEOUT_MS)
    assert "verified" in page.locator("fieldset", has_text="Access").inner_text()
    assert page.locator("a", has_text="Extracted text (.txt)").count() == 1
    page.screenshot(path=str(OUTPUT / "admin-document.png"), full_page=True)


def test_inspector_highlights_an_unsupported_v2_claim(live_server_factory, scripted, budget_document, browser):  # noqa: F811
    server = live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                                 ACEH_RAG_LLM__MAX_RETRIES="0")

    def segments(labels):
        return [{**s, "cites": [labels[0]] if s["cites"] else []} for s in SEED_EXAMPLE]

    scripted.scripts.update(agent=searching_then(segments), framing=no_framing_checkable, guard=None,
                            judge=judge_by(lambda statement, n: "unsupported" if "Naik" in statement else "supported"))
    answer = httpx.post(server.url + "/query/v2", json={"query": "Berapa anggaran pendidikan Aceh tahun 2023?"},
                        headers=KEY, timeout=60).json()
    assert [c["verdict"] for c in answer["claims"]] == ["supported", "unsupported"]

    page = admin_page(browser, server)
    page.goto(server.url + "/admin/conversations/conversation/?route=query_v2&grounding_below=0.75")
    page.locator("#result_list a", has_text="Berapa anggaran").click()
    unsupported = page.locator("mark.claim.verdict-unsupported")
    unsupported.wait_for(timeout=TIMEOUT_MS)
    assert unsupported.inner_text() == "Naik 9 persen dari 2022."
    assert page.locator("mark.claim.verdict-supported").inner_text() == "Anggaran pendidikan 2023 adalah Rp 5 miliar."
    assert page.locator("tr.claim-row.verdict-unsupported").count() == 1
    assert "grounding 50%" in page.locator(".insp-msg.assistant .badge").first.inner_text()
    assert page.locator(".insp-trace tr").count() >= 2 and page.locator("details.insp-raw[open]").count() == 0
    assert page.locator("input[name=_save]").count() == 0
    page.screenshot(path=str(OUTPUT / "admin-inspector-v2.png"), full_page=True)


def test_widget_feedback_reaches_the_admin_and_the_dashboard(live_server_factory, ppid_documents, browser):  # noqa: F811
    server = live_server_factory(**PUBLIC_ENV)
    for question in ("Siapa pemenang piala dunia?", "siapa pemenang  PIALA dunia"):
        httpx.post(server.url + "/query", json={"query": question}, headers=KEY, timeout=60)

    visitor = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB").new_page()
    visitor.goto(server.url + "/widget")
    widget(visitor).locator(".bubble").click()
    ask(visitor, "Berapa lama PPID wajib menjawab permohonan informasi?")
    answer = widget(visitor).locator(".msg.bot:not(.greeting):not(.pending)").last
    answer.locator(".feedback").wait_for(timeout=TIMEOUT_MS)
    answer.locator("button.rate.down").click()
    answer.locator("textarea.comment").fill("Tidak menyebut dasar hukumnya")
    answer.locator(".send-feedback").click()
    answer.locator(".feedback .note", has_text="Terima kasih").wait_for(timeout=TIMEOUT_MS)
    assert answer.locator("button.rate.down").get_attribute("aria-pressed") == "true"
    visitor.screenshot(path=str(OUTPUT / "widget-feedback.png"))

    page = admin_page(browser, server)
    page.goto(server.url + "/admin/conversations/feedback/?rating__exact=down")
    assert "Tidak menyebut dasar hukumnya" in page.locator("#result_list").inner_text()
    page.screenshot(path=str(OUTPUT / "admin-feedback-list.png"), full_page=True)
    page.locator("#result_list td.field-answer a").first.click()
    assert "Tidak menyebut dasar hukumnya" in page.locator(".insp-feedback").inner_text()
    assert page.locator(".insp-head", has_text="/api/public/rag/chat").count() == 1

    page.goto(server.url + "/admin/")
    page.click("#content-main .app-workbench a:has-text('Quality dashboard')")
    assert page.locator("#card-questions").inner_text() == "3"
    assert page.locator("#card-refusal").inner_text() == "67%"
    assert page.locator("#card-feedback").inner_text() == "100%"
    assert page.locator("svg.chart.daily rect").count() >= 2
    assert "siapa pemenang piala dunia" in page.locator("#refused-questions").inner_text()
    page.screenshot(path=str(OUTPUT / "admin-dashboard.png"), full_page=True)
