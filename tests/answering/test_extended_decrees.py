"""A decree that later decrees extended: the relation is read from the extending decree's title and considerations,
and a follow-up asking whether it was extended is answered from the extension (real decrees of the shared corpus)."""
from __future__ import annotations

import pytest

from retrieval.relations.extract import extract_relations
from retrieval.relations.models import LegalRelation
from tests.conftest import corpus_path
from tests.factories import make_document

pytestmark = [pytest.mark.corpus]

STATUS = "txt/kepgub-aceh-100-3-3-3-1416-2025-penetapan-status-keadaan-tanggap-darurat-bencana.txt"
FIRST_EXTENSION = "txt/kepgub-aceh-300-2-1446-2025-penetapan-perpanjangan-status-keadaan-tanggap-darurat-bencana.txt"
SECOND_EXTENSION = "txt/kepgub-aceh-300-2-1469-2025-penetapan-perpanjangan-status-keadaan-tanggap-darurat-bencana.txt"


def _extended(path: str) -> list[str]:
    return [d.target.key for d in extract_relations(corpus_path(path).read_text()) if d.relation == "extends"]


def test_an_extension_decree_extends_the_decree_its_considerations_cite():
    assert _extended(FIRST_EXTENSION) == ["keputusan gubernur aceh|100.3.3.3/1416/2025|2025"]
    # The second extension extends the first (which its considerations cite), not the original decree.
    assert _extended(SECOND_EXTENSION) == ["keputusan gubernur aceh|300.2/1446/2025|2025"]
    # The status decree itself extends nothing: its "dapat diperpanjang" is no extension.
    assert _extended(STATUS) == []


def _ask(client, query, conversation_id=None):
    body = {"query": query, **({"conversation_id": conversation_id} if conversation_id else {})}
    response = client.post("/query", data=body, content_type="application/json")
    assert response.status_code == 200
    return response.json()


def _cited_titles(body) -> set[str]:
    return {citation["document_title"] for citation in body["citations"]}


@pytest.mark.django_db
def test_asked_whether_it_was_extended_the_follow_up_answers_from_the_extension(api_client):
    documents = {path: make_document(text=corpus_path(path).read_text(), filename=path.split("/")[-1])
                 for path in (STATUS, FIRST_EXTENSION, SECOND_EXTENSION)}
    assert LegalRelation.objects.filter(relation="extends", target_document=documents[STATUS]).count() == 1
    first = _ask(api_client, "status tanggap darurat bencana hidrometeorologi di aceh yg ditetapin gubernur akhir "
                             "november 2025 berlaku sampe kapan?")
    assert first["fallback_used"] is False and "11 Desember 2025" in first["answer"]
    second = _ask(api_client, "trus diperpanjang gak?", first["conversation_id"])
    assert second["fallback_used"] is False
    # The extension's period, from the extension decree; the first decree's "dapat diperpanjang" only says it may be.
    assert second["answer"].startswith("Ya.") and "25 Desember 2025" in second["answer"].split("\n")[0]
    assert any("300.2/1446/2025" in title for title in _cited_titles(second)), _cited_titles(second)
