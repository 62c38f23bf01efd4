"""The admin shows a document's chain of relations with links, and filters documents by legal status."""
from __future__ import annotations

import pytest

from .regulations import pergub
from .test_services import AMENDING, OLD, REVOKING, ingest

pytestmark = pytest.mark.django_db


def test_document_page_shows_the_chain_with_links(admin_client):
    a, b, c = ingest(OLD, "a"), ingest(AMENDING, "b"), ingest(REVOKING, "c")
    page = admin_client.get(f"/admin/retrieval/document/{b.id}/change/").content.decode()
    assert "This document revokes / amends" in page and "Revoked / amended by" in page
    assert f'href="/admin/retrieval/document/{a.id}/change/"' in page      # what b amends
    assert f'href="/admin/retrieval/document/{c.id}/change/"' in page      # what revokes b
    assert "dicabut dan dinyatakan tidak berlaku" in page


def test_an_unindexed_target_is_named_without_a_link(admin_client):
    c = ingest(REVOKING, "c")
    page = admin_client.get(f"/admin/retrieval/document/{c.id}/change/").content.decode()
    assert "Peraturan Gubernur Aceh Nomor 7 Tahun 2024" in page and "not indexed" in page


@pytest.mark.parametrize("status, expected", [
    ("revoked", {"b"}), ("amended", {"a"}), ("unknown", {"c", "d"}), ("revoked_in_part", set()),
])
def test_status_filter(admin_client, status, expected):
    docs = {"a": ingest(OLD, "a"), "b": ingest(AMENDING, "b"), "c": ingest(REVOKING, "c"),
            "d": ingest(pergub("40", 2025, "Lain", ["Isi lain."]), "d")}
    page = admin_client.get(f"/admin/retrieval/document/?legal_status={status}").content.decode()
    shown = {name for name, doc in docs.items() if f"/admin/retrieval/document/{doc.id}/change/" in page}
    assert shown == expected


def test_relation_changelist_filters_unresolved(admin_client):
    ingest(AMENDING, "b")
    page = admin_client.get("/admin/retrieval/legalrelation/?target_document__isempty=1")
    assert page.status_code == 200 and "Peraturan Gubernur Aceh Nomor 5 Tahun 2024" in page.content.decode()
