"""A figure question that names its unit ("berapa hari") is answered by that unit's figure, not any number."""
from __future__ import annotations

import pytest

from answering.extractive.focus import focus_bonus, question_focus
from tests.factories import make_document

DAYS = ("PPID wajib memberikan pemberitahuan tertulis atas permohonan informasi publik paling lambat "
        "10 (sepuluh) hari kerja sejak permohonan diterima.")
COUNT = ("Sepanjang tahun 2025 PPID menerima 595 permohonan informasi publik, naik 18,1% dibandingkan "
         "tahun sebelumnya yang berjumlah 504 permohonan.")


def test_the_asked_unit_ranks_its_figure_above_other_numbers():
    focus = question_focus("Berapa hari PPID wajib menjawab permohonan informasi publik?")
    assert focus.kind == "figure" and focus.term_stems == frozenset({"hari"})
    assert focus_bonus(focus, DAYS, closing=False) > focus_bonus(focus, COUNT, closing=False)
    # "berapa lama" asks for a duration in any of its units; a bare "berapa" keeps every number alike.
    assert "tahun" in question_focus("brp lama masa jabatan gubernur?").term_stems
    plain = question_focus("berapa tarif retribusi pasar?")
    assert plain.term_stems == frozenset() and focus_bonus(plain, COUNT, closing=False) == focus_bonus(plain, DAYS, closing=False)


@pytest.mark.django_db
def test_the_answer_to_berapa_hari_opens_with_the_days(api_client):
    make_document(title="Laporan Statistik Permohonan Informasi Publik 2025", chunks=[COUNT])
    make_document(title="Peraturan Layanan Informasi Publik", chunks=[DAYS])
    response = api_client.post("/query", data={"query": "Berapa hari PPID wajib menjawab permohonan informasi publik?"},
                               content_type="application/json")
    body = response.json()
    assert response.status_code == 200 and body["fallback_reason"] is None, body
    assert "10 (sepuluh) hari" in body["answer"].split("\n\n")[0] + body["answer"][:400]
    assert body["citations"][0]["document_title"] == "Peraturan Layanan Informasi Publik"
