"""A named regulation's signatory through a real server (query-search-api "Named regulations", closing evidence)."""
from __future__ import annotations

import httpx
import pytest

from tests.conftest import TEST_API_KEY, corpus_path
from tests.factories import make_document

PERGUB_5_2025 = "txt/pergub-aceh-5-2025-dasar-pengenaan-pajak-alat-berat-pembuatan-sebelum-tahun-2024.txt"


# The regulation as printed: BAB III's title wraps onto "LAMPIRAN PERATURAN MENTERI DALAM NEGERI", which continues
# it, so the signature block is the closing chunk. Without the title's last word ("DALAM") the LAMPIRAN line opens
# an attachment, and the block is filed under it: the signatory is read from there too.
WRAPPED_TITLE = "YANG BELUM TERCANTUM DALAM\nLAMPIRAN"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("filed_under_lampiran", [False, True], ids=["closing-chunk", "under-the-lampiran"])
def test_the_signatory_of_pergub_5_2025_is_read_from_its_closing_block(live_server_factory, filed_under_lampiran):
    path = corpus_path(PERGUB_5_2025)
    text = path.read_text()
    assert WRAPPED_TITLE in text
    if filed_under_lampiran:
        text = text.replace(WRAPPED_TITLE, "YANG BELUM TERCANTUM\nLAMPIRAN")
    document = make_document(text=text, filename=path.name)
    assert document.chunks.filter(kind="closing").exists() is not filed_under_lampiran
    server = live_server_factory()
    for question in ("Siapa yang menandatangani Peraturan Gubernur Aceh Nomor 5 Tahun 2025?",
                     "Siapa yang menandatangani Pergub Aceh No. 05 Tahun 2025."):
        response = httpx.post(server.url + "/query", json={"query": question},
                              headers={"X-API-Key": TEST_API_KEY}, timeout=60)
        assert response.status_code == 200
        body = response.json()
        assert body["fallback_reason"] is None and body["fallback_used"] is False
        assert "Pj. GUBERNUR ACEH SAFRIZAL ZA" in body["answer"]
        cited = [c for c in body["citations"] if c["document_id"] == str(document.id)]
        assert cited and all(c["kind"] == "chunk" for c in cited)
        closing = next(c for c in body["claim_map"] if "SAFRIZAL ZA" in c["claim"])
        assert closing["citations"][0]["document_id"] == str(document.id)
