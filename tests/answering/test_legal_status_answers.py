"""Legal status in answers: status questions on every route; ADR-0053 surfacing on /query/v2 behind its flag."""
from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.principal import Principal
from answering.legal_status import legal_evidence
from answering.llm.evidence import passage_block
from answering.types import passage_from_hit
from retrieval.access import Scope
from retrieval.facade import chunk_hit
from retrieval.facade.documents import replaced_documents
from retrieval.models import LegalRelation
from retrieval.search import chunk_search
from tests.factories import make_document
from tests.retrieval.relations.regulations import pergub

pytestmark = pytest.mark.django_db

OLD = pergub("5", 2025, "Dasar Pengenaan Pajak Alat Berat", [
    "Dasar pengenaan pajak alat berat ditetapkan sebesar 0,2 persen dari nilai jual alat berat.",
])
NEW = pergub("33", 2025, "Dasar Pengenaan Pajak Alat Berat Baru", [
    "Dasar pengenaan pajak alat berat ditetapkan sebesar 0,4 persen dari nilai jual alat berat.",
    "Pada saat Peraturan Gubernur ini mulai berlaku, Peraturan Gubernur Aceh Nomor 05 Tahun 2025 tentang Dasar "
    "Pengenaan Pajak Alat Berat (Berita Daerah Aceh Tahun 2025 Nomor 05), dicabut dan dinyatakan tidak berlaku.",
], promulgated="16 Desember 2025")
CLAUSE = "dicabut dan dinyatakan tidak berlaku"
ORDINARY = "Berapa persen dasar pengenaan pajak alat berat dalam Peraturan Gubernur Aceh Nomor 5 Tahun 2025?"
BROAD = "Berapa persen dasar pengenaan pajak alat berat?"
STATUS = "Apakah Peraturan Gubernur Aceh Nomor 5 Tahun 2025 tentang pajak alat berat masih berlaku?"
IDS = ("conversation_id", "message_id", "trace_id")


@pytest.fixture
def regulations():
    old = make_document(text=OLD, filename="pergub-5-2025.txt")
    new = make_document(text=NEW, filename="pergub-33-2025.txt")
    return old, new


@pytest.fixture
def surfacing(settings):
    settings.ACEH_RAG = replace(settings.ACEH_RAG, legal_relations=replace(
        settings.ACEH_RAG.legal_relations, surface_enabled=True))


def ask(client, query, path="/query/v2", **headers):
    response = client.post(path, data={"query": query}, content_type="application/json", **headers)
    assert response.status_code == 200, response.content
    return response.json()


def without_ids(body: dict) -> dict:
    return {k: v for k, v in body.items() if k not in IDS}


def clause_citations(body, document):
    return [c for c in body["citations"] if c["document_id"] == str(document.id) and "Pasal 2" in (c["legal_reference"] or "")]


def test_flag_off_v2_is_unchanged_by_stored_relations(api_client, regulations):
    old, new = regulations
    assert LegalRelation.objects.filter(source_document=new, target_document=old).exists()
    with_relations = ask(api_client, ORDINARY)
    LegalRelation.objects.all().delete()
    without_relations = ask(api_client, ORDINARY)
    assert without_ids(with_relations) == without_ids(without_relations)
    assert "Perlu diperhatikan" not in with_relations["answer"]


def test_flag_on_adds_the_revoking_clause_as_a_cited_passage_with_a_framing_sentence(api_client, regulations, surfacing):
    old, new = regulations
    body = ask(api_client, ORDINARY)
    assert body["answer"].startswith("Perlu diperhatikan:")
    [framing] = [f for f in body["framing"] if f["text"] == "Perlu diperhatikan:"]
    assert framing["start"] == 0
    clause = next(c for c in body["claims"] if CLAUSE in c["text"])
    assert clause["verdict"] == "supported"
    assert [c["citation"]["document_id"] for c in clause["citations"]] == [str(new.id)]
    assert clause_citations(body, new)
    # nothing filtered: the revoked regulation's own passage is still answered from
    assert any(c["document_id"] == str(old.id) for c in body["citations"])


def test_flag_on_does_not_repeat_a_clause_the_answer_already_quotes(api_client, regulations, surfacing):
    body = ask(api_client, BROAD)
    assert body["answer"].count(CLAUSE) <= 1


def test_flag_on_marks_the_identity_the_agent_and_judge_read(regulations, surfacing):
    old, new = regulations
    principal = Principal()
    hits = chunk_search(BROAD, mode="hybrid", top_k=8, principal=principal, scope=Scope()).hits
    passages = [passage_from_hit(chunk_hit(hit.chunk, hit.score), "search") for hit in hits]
    surfaced = legal_evidence(passages, question=BROAD, principal=principal, scope=Scope(), surface=True)
    revoked = next(p for p in surfaced.passages if p.document_id == old.id)
    assert revoked.legal_status == "revoked"
    assert revoked.legal_status_basis.startswith("dicabut oleh Peraturan Gubernur Aceh Nomor 33 Tahun 2025 Pasal 2")
    assert "legal_status: revoked (dicabut oleh Peraturan Gubernur Aceh Nomor 33 Tahun 2025 Pasal 2" in passage_block(revoked)
    assert [n.passage.document_id for n in surfaced.clauses] in ([new.id], [])  # already returned -> not added twice
    assert all(p.legal_status is None for p in passages)  # the flag-off passages are untouched


@pytest.mark.parametrize("path,question", [
    ("/query", STATUS), ("/query/v2", STATUS),
    # Asked in chat ("msh berlaku", "masih dipake"): the same question, read the same way.
    ("/query", "kalau Peraturan Gubernur Aceh Nomor 5 Tahun 2025 itu msh berlaku?"),
    ("/query", "Peraturan Gubernur Aceh Nomor 5 Tahun 2025 masih dipake buat hitung pajak?"),
])
def test_status_question_is_answered_from_the_clause_on_every_route(api_client, regulations, path, question):
    old, new = regulations
    body = ask(api_client, question, path=path)
    assert CLAUSE in body["answer"]
    assert clause_citations(body, new)


def test_status_question_answered_when_the_flag_is_on_too(api_client, regulations, surfacing):
    old, new = regulations
    body = ask(api_client, STATUS)
    assert CLAUSE in body["answer"] and clause_citations(body, new)


def test_a_confidential_revoker_does_not_reach_an_anonymous_answer(api_client, surfacing):
    old = make_document(text=OLD, filename="pergub-5-2025.txt")
    secret = make_document(text=NEW, filename="pergub-33-2025.txt", confidential=True)
    for query in (ORDINARY, STATUS):
        body = ask(api_client, query)
        assert all(c["document_id"] != str(secret.id) for c in body["citations"])
        assert "Perlu diperhatikan" not in body["answer"]
    verified = ask(api_client, STATUS, HTTP_X_USER_SUBJECT="staff")
    assert clause_citations(verified, secret)
    assert any(c["document_id"] == str(old.id) for c in ask(api_client, ORDINARY)["citations"])


UNRELATED = pergub("40", 2025, "Retribusi Pelayanan Pasar", [
    "Retribusi pelayanan pasar dipungut atas penggunaan fasilitas pasar milik Pemerintah Aceh.",
    "Pada saat Peraturan Gubernur ini mulai berlaku, Peraturan Gubernur Aceh Nomor 09 Tahun 2019 tentang Retribusi "
    "Pasar (Berita Daerah Aceh Tahun 2019 Nomor 09), dicabut dan dinyatakan tidak berlaku.",
], promulgated="2 Desember 2025")


@pytest.mark.parametrize("path", ["/query", "/query/v2"])
def test_an_instrument_never_ingested_is_answered_from_the_clause_that_revoked_it(api_client, path):
    # Only the revoker is in the corpus: the old regulation is known by the clause naming it, and that clause (not
    # another regulation's revoking clause the search also reached) answers, with the no first.
    new = make_document(text=NEW, filename="pergub-33-2025.txt")
    make_document(text=UNRELATED, filename="pergub-40-2025.txt")
    body = ask(api_client, "Is Aceh Governor Regulation 5/2025 on heavy equipment tax still a valid legal basis?",
               path=path)
    assert body["answer"].startswith("No.") and CLAUSE in body["answer"]
    assert clause_citations(body, new)
    assert "Retribusi Pasar" not in body["answer"]
    assert "Berita Daerah" not in body["answer"].split("\n")[0]      # the opener leaves the gazette out


def test_a_confidential_revoker_of_an_instrument_never_ingested_stays_unseen(api_client):
    secret = make_document(text=NEW, filename="pergub-33-2025.txt", confidential=True)
    make_document(text=UNRELATED, filename="pergub-40-2025.txt")
    question = "Is Aceh Governor Regulation 5/2025 on heavy equipment tax still a valid legal basis?"
    anonymous = ask(api_client, question, path="/query")
    assert CLAUSE not in anonymous["answer"] and all(c["document_id"] != str(secret.id) for c in anonymous["citations"])
    staff = ask(api_client, question, path="/query", HTTP_X_USER_SUBJECT="staff")
    assert staff["answer"].startswith("No.") and clause_citations(staff, secret)


@pytest.mark.parametrize("path", ["/query", "/query/v2"])
def test_a_question_that_names_no_instrument_is_answered_from_the_law_in_force(api_client, regulations, path):
    old, new = regulations
    body = ask(api_client, BROAD, path=path)
    assert "0,4 persen" in body["answer"]
    assert "0,2 persen" not in body["answer"].split("\n")[0]
    assert body["citations"][0]["document_id"] == str(new.id)


def test_the_revoked_regulation_still_answers_when_the_question_gives_its_year_or_the_relation_is_gone(
        api_client, regulations):
    old, new = regulations
    principal = Principal()
    hits = chunk_search(BROAD, mode="hybrid", top_k=8, principal=principal, scope=Scope()).hits
    passages = [passage_from_hit(chunk_hit(hit.chunk, hit.score), "search") for hit in hits]
    old_first = sorted(passages, key=lambda p: p.document_id != old.id)

    def order(question):
        found = legal_evidence(old_first, question=question, principal=principal, scope=Scope(), surface=False,
                               current_first=True).passages
        return [p.document_id for p in found]

    assert order(BROAD)[0] == new.id                                   # the law in force leads
    assert set(order(BROAD)) == {p.document_id for p in passages}       # nothing is removed
    assert order("Berapa persen dasar pengenaan pajak alat berat menurut pergub tahun 2025?")[0] == old.id
    carried = [replace(p, origin="followup") if p.document_id == old.id else p for p in old_first]
    kept = legal_evidence(carried, question=BROAD, principal=principal, scope=Scope(), surface=False,
                          current_first=True).passages
    assert kept[0].document_id == old.id                                # a follow-up's document keeps its place
    LegalRelation.objects.all().delete()
    assert order(BROAD)[0] == old.id                                    # no relation: the search's order stands


def test_only_a_revoker_the_caller_may_see_puts_the_law_in_force_first():
    old = make_document(text=OLD, filename="pergub-5-2025.txt")
    secret = make_document(text=NEW, filename="pergub-33-2025.txt", confidential=True)
    ids = [old.id, secret.id]
    assert replaced_documents(principal=Principal(), document_ids=ids) == {}
    assert replaced_documents(principal=Principal(subject="staff", verified=True), document_ids=ids) == {old.id: 2025}
