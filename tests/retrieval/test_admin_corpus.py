"""Corpus screens stay small and bounded for a long law; chunks are read-only; enable/disable is recorded."""
from __future__ import annotations

import pytest

from retrieval.models import Chunk
from tests.conftest import purge_committed_corpus
from tests.factories import make_document

pytestmark = pytest.mark.django_db

CHUNKS = 1000
MAX_QUERIES = 12
MAX_DOCUMENT_PAGE_BYTES = 200_000


@pytest.fixture(scope="module")
def long_law(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        document = make_document(title="Undang-Undang Uji Panjang",
                                 chunks=[f"Ketentuan nomor {i} mengatur urusan pemerintahan daerah bagian {i}." for i in range(CHUNKS)])
        yield document
        purge_committed_corpus()     # the document and the collection it was filed in


def test_a_thousand_chunk_document_keeps_every_admin_page_bounded(admin_client, long_law, django_assert_max_num_queries):
    assert Chunk.objects.filter(document=long_law).count() >= CHUNKS
    chunk = Chunk.objects.filter(document=long_law).order_by("ordinal")[500]
    pages = [
        "/admin/retrieval/document/",
        f"/admin/retrieval/document/{long_law.pk}/change/",
        f"/admin/retrieval/chunk/?document__id__exact={long_law.pk}",
        f"/admin/retrieval/chunk/?document__id__exact={long_law.pk}&p=10",
        f"/admin/retrieval/chunk/{chunk.pk}/change/",
        "/admin/retrieval/chunk/?q=urusan",
    ]
    for url in pages:
        with django_assert_max_num_queries(MAX_QUERIES):
            response = admin_client.get(url)
        assert response.status_code == 200, url
    document_page = admin_client.get(f"/admin/retrieval/document/{long_law.pk}/change/")
    assert len(document_page.content) < MAX_DOCUMENT_PAGE_BYTES
    # The document page shows no passage inline, and links to the paginated chunk screen.
    assert b"Ketentuan nomor 17 " not in document_page.content
    assert f"chunk/?document__id__exact={long_law.pk}".encode() in document_page.content
    listing = admin_client.get(f"/admin/retrieval/chunk/?document__id__exact={long_law.pk}")
    assert listing.content.count(b'class="field-preview"') == 50


def test_chunk_page_is_read_only_and_toggles_with_who_and_when(admin_client, admin_user):
    document = make_document(chunks=["Zakat dibayar melalui Baitul Mal.", "Infak bersifat sukarela."])
    chunk = Chunk.objects.filter(document=document).order_by("ordinal").last()
    page = admin_client.get(f"/admin/retrieval/chunk/{chunk.pk}/change/")
    assert page.status_code == 200
    assert b'name="_save"' not in page.content and b"/delete/" not in page.content
    assert admin_client.get(f"/admin/retrieval/chunk/{chunk.pk}/delete/").status_code == 403
    assert admin_client.post(f"/admin/retrieval/chunk/{chunk.pk}/change/", {"text": "changed"}).status_code == 403
    assert b"Disable this chunk" in page.content

    admin_client.post(f"/admin/retrieval/chunk/{chunk.pk}/toggle/")
    chunk.refresh_from_db()
    assert not chunk.enabled and chunk.disabled_by == admin_user.username and chunk.disabled_at
    page = admin_client.get(f"/admin/retrieval/chunk/{chunk.pk}/change/")
    assert b"Enable this chunk" in page.content

    admin_client.post("/admin/retrieval/chunk/", {"action": "enable_chunks", "_selected_action": [chunk.pk]})
    chunk.refresh_from_db()
    assert chunk.enabled and chunk.disabled_at is None


def test_add_document_leads_to_the_upload_page(admin_client):
    response = admin_client.get("/admin/retrieval/document/add/")
    assert response.status_code == 302 and response["Location"].endswith("/admin/retrieval/document/upload/")
    upload = admin_client.get("/admin/retrieval/document/upload/")
    assert b'<select name="collection"' in upload.content
