"""Status questions about an amended regulation: the amending clause leads and says it, plainly."""
from __future__ import annotations

import re

import pytest

from answering.extractive.units import passage_units
from retrieval.models import LegalRelation
from tests.factories import make_document
from tests.retrieval.relations.regulations import pergub

pytestmark = pytest.mark.django_db

AMENDED = pergub("5", 2025, "Dasar Pengenaan Pajak Alat Berat", [
    "Dasar pengenaan pajak alat berat ditetapkan sebesar 0,2 persen dari nilai jual alat berat.",
    "Pajak alat berat dibayar setiap tahun.",
])
AMENDING = pergub("33", 2025, "Perubahan atas Peraturan Gubernur Aceh Nomor 5 Tahun 2025", [
    "Beberapa ketentuan dalam Peraturan Gubernur Aceh Nomor 5 Tahun 2025 tentang Dasar Pengenaan Pajak Alat Berat "
    "(Berita Daerah Aceh Tahun 2025 Nomor 05) diubah sebagai berikut:\n"
    "1. Ketentuan Pasal 1 diubah sehingga berbunyi: dasar pengenaan pajak alat berat sebesar 0,4 persen.",
])
CLAUSE = "Beberapa ketentuan dalam Peraturan Gubernur Aceh Nomor 5 Tahun 2025 tentang Dasar Pengenaan Pajak Alat Berat diubah."


@pytest.fixture
def regulations():
    old = make_document(text=AMENDED, filename="pergub-5-2025.txt")
    new = make_document(text=AMENDING, filename="pergub-33-2025.txt")
    assert LegalRelation.objects.filter(source_document=new, target_document=old, relation="amends").exists()
    return old, new


def ask(client, query, path="/query"):
    response = client.post(path, data={"query": query}, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize("path", ["/query", "/query/v2"])
@pytest.mark.parametrize("question,opens", [
    ("Apakah Peraturan Gubernur Aceh Nomor 5 Tahun 2025 masih berlaku?", f"Ya. {CLAUSE}"),
    ("Apakah Peraturan Gubernur Aceh Nomor 5 Tahun 2025 sudah dicabut?", f"Tidak. {CLAUSE}"),
    ("Peraturan Gubernur Aceh Nomor 5 Tahun 2025 masih berlaku atau sudah diubah?", CLAUSE),
    ("Is Aceh Governor Regulation No. 5 of 2025 still in force?", f"Yes. {CLAUSE}"),
    ("pergub pajak 5/2025 msh berlaku gak?", f"Ya. {CLAUSE}"),
])
def test_the_amending_clause_answers_first(api_client, regulations, path, question, opens):
    old, new = regulations
    body = ask(api_client, question, path)
    answer = re.sub(r"\s*\[[\w:-]+\]", "", body["answer"])       # the seed's inline citation labels
    assert answer.startswith(opens), body["answer"]
    assert body["citations"][0]["document_id"] == str(new.id)


def test_without_the_relation_no_verdict_is_given(api_client, regulations):
    LegalRelation.objects.all().delete()
    body = ask(api_client, "Apakah Peraturan Gubernur Aceh Nomor 5 Tahun 2025 masih berlaku?")
    assert not body["answer"].startswith(("Ya.", "Tidak."))


def test_an_amending_lead_in_whose_items_are_in_the_next_passage_is_still_quoted():
    text = ("Pasal I\nBeberapa ketentuan dalam Peraturan Pemerintah Nomor 19 Tahun 2010 tentang Tata Cara Pelaksanaan "
            "Tugas Gubernur (Lembaran Negara Republik Indonesia Tahun 2010 Nomor 25), diubah sebagai berikut:")
    assert [u.text for u in passage_units(text)] == [text.split("\n")[1]]
    # a lead-in that acts on nothing by itself, or a Mengingat item's gazette reference, is still not quoted
    assert passage_units("Syarat pendaftaran adalah sebagai berikut:") == []
    assert passage_units("Mengingat : Undang-Undang Nomor 11 Tahun 2006 (Lembaran Negara Tahun 2006 Nomor 62) "
                         "sebagaimana telah diubah dengan Undang-Undang Nomor 1 Tahun 2022;") == []


REVOKING_LIST = pergub("40", 2025, "Retribusi Pasar dan Terminal", [
    "Tarif retribusi pasar ditetapkan sebesar Rp2.000,00 per hari.",
    "Pada saat Peraturan Gubernur ini mulai berlaku:\n"
    "a. semua peraturan pelaksanaan dari Peraturan Gubernur Aceh Nomor 7 Tahun 2024 tentang Retribusi Pasar "
    "dinyatakan tetap berlaku sepanjang tidak bertentangan dengan Peraturan Gubernur ini;\n"
    "b. Peraturan Gubernur Aceh Nomor 7 Tahun 2024 tentang Retribusi Pasar (Berita Daerah Aceh Tahun 2024 Nomor 7); dan\n"
    "c. Peraturan Gubernur Aceh Nomor 8 Tahun 2024 tentang Retribusi Terminal (Berita Daerah Aceh Tahun 2024 Nomor 8),\n"
    "dicabut dan dinyatakan tidak berlaku.",
    "Ketentuan lebih lanjut diatur oleh Kepala Dinas Perhubungan Aceh Nomor 5 Tahun 2024 sesuai kewenangannya.",
])


@pytest.mark.parametrize("question,opens", [
    ("Apakah Peraturan Gubernur Aceh Nomor 7 Tahun 2024 tentang retribusi pasar masih berlaku?",
     "Tidak. Peraturan Gubernur Aceh Nomor 7 Tahun 2024 tentang Retribusi Pasar dicabut dan dinyatakan tidak berlaku."),
    ("pergub retribusi 8/2024 msh berlaku?",
     "Tidak. Peraturan Gubernur Aceh Nomor 8 Tahun 2024 tentang Retribusi Terminal dicabut dan dinyatakan tidak berlaku."),
])
def test_the_revoked_item_of_a_list_closed_by_one_predicate_answers_first(api_client, question, opens):
    make_document(text=REVOKING_LIST, filename="pergub-40-2025.txt")
    body = ask(api_client, question)
    answer = re.sub(r"\s*\[[\w:-]+\]", "", body["answer"])
    assert answer.startswith(opens), body["answer"]
