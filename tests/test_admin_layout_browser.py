"""The admin fits a 1280–1400 px screen and says what an administrator scans for (headless Chromium).

Data is committed before the browser starts (Playwright's sync API keeps an event loop running in
this thread, where Django refuses database calls). Screenshots land in ``test-output/``.
"""
from __future__ import annotations

import httpx
import pytest

from tests.browser import OUTPUT, browser  # noqa: F401 (the fixture)
from tests.conftest import TEST_API_KEY
from tests.factories import make_document

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "layout-pass"
LONG_TITLE = ("Peraturan Pemerintah Nomor 23 Tahun 2011 tentang Perubahan atas Peraturan Pemerintah Nomor 19 Tahun 2010 "
              "tentang Tata Cara Pelaksanaan Tugas dan Wewenang serta Kedudukan Keuangan Gubernur sebagai Wakil "
              "Pemerintah di Wilayah Provinsi")
QUESTION = "Berapa hari PPID wajib menjawab permohonan informasi?"

# Every column header of the result table lies inside the visible part of its scroll box.
CLIPPED_HEADERS = """() => {
  const box = document.querySelector('#changelist .results').getBoundingClientRect();
  return [...document.querySelectorAll('#result_list thead th')]
    .filter(th => th.getBoundingClientRect().right > box.right + 1)
    .map(th => th.innerText.trim());
}"""


@pytest.fixture
def corpus_with_feedback(django_user_model, live_server_factory):
    server = live_server_factory()
    django_user_model.objects.create_superuser("layout", "layout@example.org", PASSWORD)
    make_document(title=LONG_TITLE, chunks=["Gubernur sebagai wakil Pemerintah melaksanakan pembinaan.",
                                            "Gubernur melaporkan pelaksanaan tugas kepada Presiden.",
                                            "Pendanaan tugas Gubernur dibebankan pada APBN."])
    make_document(title="Qanun Aceh Nomor 7 Tahun 2019 tentang Keterbukaan Informasi",
                  chunks=["PPID wajib menjawab permohonan informasi paling lambat 10 (sepuluh) hari kerja."])
    key = {"X-API-Key": TEST_API_KEY, "X-User-Subject": "warga-1"}
    answer = httpx.post(server.url + "/query", json={"query": QUESTION}, headers=key, timeout=60).json()
    feedback = httpx.post(f"{server.url}/messages/{answer['message_id']}/feedback",
                          json={"rating": "down", "comment": "Sebutkan juga dasar hukumnya."}, headers=key, timeout=30)
    assert feedback.status_code == 201, feedback.text
    return server


def logged_in(browser, server, width: int):  # noqa: F811
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(server.url + "/admin/login/?next=/admin/")
    page.fill("#id_username", "layout")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(server.url + "/admin/")
    return page


@pytest.mark.parametrize("width", [1280, 1400])
def test_documents_list_fits_the_screen(corpus_with_feedback, browser, width):  # noqa: F811
    page = logged_in(browser, corpus_with_feedback, width)
    page.goto(corpus_with_feedback.url + "/admin/retrieval/document/")
    assert page.evaluate(CLIPPED_HEADERS) == []
    headers = page.locator("#result_list thead th").all_inner_texts()
    assert [h.strip().lower() for h in headers[1:]] == ["title", "type · number · year", "status", "chunks", "updated"]
    # The long title is cut to two lines in the list, and whole in its tooltip.
    cell = page.locator("#result_list td.field-title_cell .truncated, #result_list th.field-title_cell .truncated",
                        has_text="Peraturan Pemerintah Nomor 23").first
    assert cell.get_attribute("title") == LONG_TITLE
    assert cell.bounding_box()["height"] < 3 * 20
    # One way to add a document: the upload.
    tools = page.locator(".object-tools a").all_inner_texts()
    assert [t.strip().lower() for t in tools] == ["upload document"]
    # Filters speak one language.
    assert page.locator("#changelist-filter", has_text="By legal status").count() == 1
    assert page.locator("#changelist-filter", has_text="status hukum").count() == 0
    page.screenshot(path=str(OUTPUT / f"admin-documents-{width}.png"), full_page=True)


def test_workbench_chunks_traces_and_feedback_read_as_an_administrator_expects(corpus_with_feedback, browser):  # noqa: F811
    server = corpus_with_feedback
    page = logged_in(browser, server, 1400)
    # The workbench is an app of the index and of every page's sidebar.
    assert page.locator("#content-main .app-workbench a", has_text="Quality dashboard").count() == 1
    page.goto(server.url + "/admin/retrieval/document/")
    assert page.locator("#nav-sidebar .app-workbench a", has_text="Retrieval test").count() == 1

    # A document page: the title and the tools do not overlap.
    page.locator("#result_list a", has_text="Peraturan Pemerintah Nomor 23").click()
    title = page.locator("#content > h2").bounding_box()
    tools = page.locator("#content-main > .object-tools").bounding_box()
    assert title["y"] + title["height"] <= tools["y"] or title["x"] + title["width"] <= tools["x"]
    page.screenshot(path=str(OUTPUT / "admin-document-1400.png"), full_page=True)

    # A chunk page is titled by its document and section, with the neighbouring passages.
    page.locator(".field-chunks a", has_text="View the").click()
    page.locator("#result_list tbody tr", has_text="Pasal 2").locator("th a").click()
    heading = page.locator("#content > h2").inner_text()
    assert heading.startswith(LONG_TITLE) and "Pasal 2" in heading and "#" in heading
    page.locator(".chunk-pager a[rel=next]").click()
    assert "Pasal 3" in page.locator("#content > h2").inner_text()
    assert page.locator(".chunk-pager a[rel=next]").count() == 0
    page.locator(".chunk-pager a[rel=prev]").click()
    assert "Pasal 2" in page.locator("#content > h2").inner_text()
    page.screenshot(path=str(OUTPUT / "admin-chunk-1400.png"), full_page=True)

    # Traces and feedback are listed by their question and answer, not by ids.
    page.goto(server.url + "/admin/answering/answertrace/")
    assert page.locator("#result_list td.field-answer, #result_list th.field-question", has_text=QUESTION).count() == 1
    answer = page.locator("#result_list td.field-answer").first.inner_text()
    assert answer not in ("", "—") and "[chunk:" not in answer and "**" not in answer

    page.goto(server.url + "/admin/conversations/feedback/")
    row = page.locator("#result_list tbody tr").first
    assert QUESTION in row.inner_text() and "Sebutkan juga dasar hukumnya." in row.inner_text()
    assert row.locator("td.field-triage").inner_text() == "New"
    # Triage: mark it reviewed, then filter by state.
    row.locator("input.action-select").check()
    page.select_option("select[name=action]", "mark_reviewed")
    page.click("button[name=index]")
    assert page.locator("#result_list td.field-triage").first.inner_text() == "Reviewed"
    page.goto(server.url + "/admin/conversations/feedback/?triage__exact=new")
    assert page.locator("#result_list tbody tr").count() == 0
    page.goto(server.url + "/admin/conversations/feedback/?triage__exact=reviewed")
    assert page.locator("#result_list tbody tr").count() == 1
    page.screenshot(path=str(OUTPUT / "admin-feedback-1400.png"), full_page=True)
