"""Relations recorded at ingestion, linked as targets arrive, and shown per caller."""
from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from kernel.principal import Principal
from retrieval.ingestion import IngestOptions, document_ingest_bytes
from retrieval.models import Document, LegalRelation
from retrieval.relations.selectors import legal_status_for

from .regulations import pergub

pytestmark = pytest.mark.django_db

ANONYMOUS = Principal(subject=None, verified=False)

OLD = pergub("5", 2024, "Dasar Pengenaan Pajak Alat Berat", ["Tarif pajak alat berat 0,2 persen."])
AMENDING = pergub("7", 2024, "Perubahan atas Peraturan Gubernur Aceh Nomor 5 Tahun 2024 tentang Dasar Pengenaan "
                  "Pajak Alat Berat", [
                      "Beberapa ketentuan dalam Peraturan Gubernur Aceh Nomor 5 Tahun 2024 tentang Dasar Pengenaan "
                      "Pajak Alat Berat diubah sebagai berikut: tarif menjadi 0,3 persen.",
                  ])
REVOKING = pergub("33", 2025, "Dasar Pengenaan Pajak Alat Berat", [
    "Tarif pajak alat berat 0,4 persen.",
    "Pada saat Peraturan Gubernur ini mulai berlaku, Peraturan Gubernur Aceh Nomor 7 Tahun 2024 tentang Perubahan "
    "atas Peraturan Gubernur Aceh Nomor 5 Tahun 2024 (Berita Daerah Aceh Tahun 2024 Nomor 7), dicabut dan "
    "dinyatakan tidak berlaku.",
], promulgated="16 Desember 2025")


def ingest(text: str, key: str, **options) -> Document:
    outcome = document_ingest_bytes(data=text.encode(), filename=f"{key}.txt", source_key=f"test:{key}",
                                    options=IngestOptions(collection_id="JDIH", **options))
    assert outcome.status in ("ingested", "replaced"), outcome
    return Document.objects.get(pk=outcome.document_id)


def status(document: Document, principal: Principal = ANONYMOUS):
    return legal_status_for(principal=principal, document_id=document.id)


def test_chain_a_amended_by_b_and_b_revoked_by_c():
    a, b, c = ingest(OLD, "a"), ingest(AMENDING, "b"), ingest(REVOKING, "c")
    assert status(a).status == "amended"
    assert status(a).basis == ("diubah oleh Peraturan Gubernur Aceh Nomor 7 Tahun 2024 Pasal 1 (sejak 2 Januari "
                               "2024) (ketentuan lain tetap berlaku)")
    assert status(b).status == "revoked"
    assert status(b).basis == "dicabut oleh Peraturan Gubernur Aceh Nomor 33 Tahun 2025 Pasal 2 (sejak 16 Desember 2025)"
    assert status(c).status == "unknown" and status(c).basis is None
    outgoing = [(r.relation, r.document_id) for r in status(c).relations if r.direction == "outgoing"]
    assert outgoing == [("revokes", b.id)]
    incoming_b = [(r.relation, r.document_id, r.pasal) for r in status(b).relations if r.direction == "incoming"]
    assert incoming_b == [("revokes", c.id, "Pasal 2")]


def test_target_ingested_after_its_revoker_is_linked_on_arrival():
    c = ingest(REVOKING, "c")
    [relation] = LegalRelation.objects.filter(source_document=c)
    assert relation.target_document_id is None
    b = ingest(AMENDING, "b")
    relation.refresh_from_db()
    assert relation.target_document_id == b.id
    assert status(b).status == "revoked"


def test_reingested_source_replaces_its_relations_and_old_version_stops_speaking():
    a = ingest(OLD, "a")
    ingest(AMENDING, "b")
    assert status(a).status == "amended"
    rewritten = AMENDING.replace("Beberapa ketentuan dalam Peraturan Gubernur Aceh Nomor 5 Tahun 2024 tentang Dasar "
                                 "Pengenaan Pajak Alat Berat diubah", "Tarif ditetapkan")
    rewritten = rewritten.replace("PERUBAHAN ATAS PERATURAN GUBERNUR ACEH NOMOR 5 TAHUN 2024 TENTANG ", "")
    b2 = ingest(rewritten, "b")
    assert b2.version == 2
    assert status(a).status == "unknown"
    assert not LegalRelation.objects.filter(source_document=b2).exists()


def test_reingested_target_moves_incoming_relations_to_the_new_version():
    ingest(REVOKING, "c")
    b = ingest(AMENDING, "b")
    b2 = ingest(AMENDING + "\nLampiran diperbarui.\n", "b")
    assert b2.id != b.id
    assert status(b2).status == "revoked"
    assert LegalRelation.objects.get(source_document__source_key="test:c").target_document_id == b2.id


def test_ocr_noisy_target_number_resolves_when_unique():
    target = ingest(pergub("140", 2007, "Kas Daerah", ["Kas dikelola bendahara."]), "kas")
    ingest(pergub("2", 2025, "Kas Daerah", [
        "Pada saat Peraturan Gubernur ini mulai berlaku, Peraturan Gubernur Aceh Nomor l4O Tahun 2OO7 tentang Kas "
        "Daerah dicabut dan dinyatakan tidak berlaku.",
    ]), "kas-baru")
    assert status(target).status == "revoked"


def test_copies_of_one_regulation_all_carry_its_status():
    text_copy = ingest(OLD, "a-txt")
    pdf_copy = ingest(OLD.replace("0,2 persen", "0,2  persen (salinan)"), "a-pdf")
    b = ingest(AMENDING, "b")
    assert LegalRelation.objects.get(source_document=b).target_document_id == pdf_copy.id  # first by source key
    assert status(text_copy).status == status(pdf_copy).status == "amended"


def test_confidential_revoker_does_not_leak_through_the_target_status():
    b = ingest(AMENDING, "b")
    ingest(REVOKING, "c", confidential=True)
    anonymous = status(b)
    assert anonymous.status == "unknown" and anonymous.basis is None
    assert all(r.direction == "outgoing" for r in anonymous.relations)
    verified = status(b, Principal(subject="staff", verified=True))
    assert verified.status == "revoked"


def test_documents_api_adds_status_basis_and_relations(api_client):
    a, b, c = ingest(OLD, "a"), ingest(AMENDING, "b"), ingest(REVOKING, "c", confidential=True)
    anonymous = api_client.get(f"/documents/{b.id}").json()
    assert anonymous["legal_status"] == "unknown" and anonymous["legal_status_basis"] is None
    assert [(r["direction"], r["relation"], r["document_id"]) for r in anonymous["relations"]] == [
        ("outgoing", "amends", str(a.id))]
    assert str(c.id) not in json.dumps(anonymous)
    verified = api_client.get(f"/documents/{b.id}", HTTP_X_USER_SUBJECT="staff").json()
    assert verified["legal_status"] == "revoked"
    assert verified["legal_status_basis"].startswith("dicabut oleh Peraturan Gubernur Aceh Nomor 33 Tahun 2025 Pasal 2")
    incoming = [r for r in verified["relations"] if r["direction"] == "incoming"]
    assert incoming == [{"direction": "incoming", "relation": "revokes", "document_id": str(c.id),
                         "identity": "Peraturan Gubernur Aceh Nomor 33 Tahun 2025",
                         "title": "DASAR PENGENAAN PAJAK ALAT BERAT", "pasal": "Pasal 2", "articles": [],
                         "date": "16 Desember 2025"}]
    listing = api_client.get("/documents").json()
    by_id = {item["id"]: item for item in listing["items"]}
    assert by_id[str(a.id)]["legal_status"] == "amended"
    assert by_id[str(b.id)]["legal_status"] == "unknown"
    assert str(c.id) not in by_id


def test_document_list_reads_relations_in_a_bounded_number_of_queries(api_client, django_assert_max_num_queries):
    for i in range(6):
        ingest(pergub(str(20 + i), 2025, f"Topik {i}", ["Isi."]), f"d{i}")
    ingest(OLD, "a")
    ingest(AMENDING, "b")
    with django_assert_max_num_queries(8):
        assert api_client.get("/documents").status_code == 200


def test_command_lists_rebuilds_and_filters_unresolved():
    ingest(AMENDING, "b")
    ingest(REVOKING, "c")
    LegalRelation.objects.all().delete()
    out, err = io.StringIO(), io.StringIO()
    call_command("legal_relations", "--rebuild", "--json", stdout=out, stderr=err)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {(r["source"], r["relation"], r["target"]) for r in rows} == {
        ("Peraturan Gubernur Aceh Nomor 7 Tahun 2024", "amends", "Peraturan Gubernur Aceh Nomor 5 Tahun 2024"),
        ("Peraturan Gubernur Aceh Nomor 33 Tahun 2025", "revokes", "Peraturan Gubernur Aceh Nomor 7 Tahun 2024"),
    }
    assert "[2/2 documents]" in err.getvalue()
    revoke = next(r for r in rows if r["relation"] == "revokes")
    assert revoke["clause"].endswith("dicabut dan dinyatakan tidak berlaku") and revoke["pasal"] == "Pasal 2"
    out = io.StringIO()
    call_command("legal_relations", "--unresolved", "--json", stdout=out, stderr=io.StringIO())
    assert [json.loads(line)["target"] for line in out.getvalue().splitlines()] == [
        "Peraturan Gubernur Aceh Nomor 5 Tahun 2024"]


def test_basis_wording_for_partial_revocation_and_replacement():
    target = ingest(pergub("3", 2009, "Pemerintahan Gampong", ["Gampong dipimpin keuchik."]), "gampong")
    ingest(pergub("4", 2025, "Gampong", [
        "Pada saat Peraturan Gubernur ini mulai berlaku, Pasal 200 sampai dengan Pasal 216 Peraturan Gubernur Aceh "
        "Nomor 3 Tahun 2009 tentang Pemerintahan Gampong dicabut dan dinyatakan tidak berlaku.",
    ], promulgated="5 Mei 2025"), "gampong-baru")
    partial = status(target)
    assert partial.status == "revoked_in_part"
    assert partial.basis == ("dicabut sebagian oleh Peraturan Gubernur Aceh Nomor 4 Tahun 2025 Pasal 1 (Pasal 200-216) "
                             "(sejak 5 Mei 2025) (ketentuan lain tetap berlaku)")
    ingest(pergub("6", 2025, "Gampong", [
        "Peraturan Gubernur Aceh Nomor 3 Tahun 2009 tentang Pemerintahan Gampong dicabut dan diganti dengan "
        "Peraturan Gubernur ini.",
    ], promulgated="9 Juni 2025"), "gampong-pengganti")
    replaced = status(target)
    assert replaced.status == "superseded"   # a whole replacement outranks a partial revocation
    assert replaced.basis == "digantikan oleh Peraturan Gubernur Aceh Nomor 6 Tahun 2025 Pasal 1 (sejak 9 Juni 2025)"
    assert {r.relation for r in replaced.relations if r.direction == "incoming"} == {"revokes_in_part", "supersedes"}
