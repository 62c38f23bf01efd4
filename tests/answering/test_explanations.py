"""An article read with its Penjelasan (answering/answer/explanations.py): the elucidation that says something of
its own follows its article; "Cukup jelas" and documents the reader may not see add nothing."""
from __future__ import annotations

import pytest

from answering.answer.explanations import EXPLANATION_ORIGIN, with_explanations
from answering.extractive.units import passage_units
from answering.types import passage_from_hit
from kernel.principal import Principal
from retrieval.facade import Scope, chunk_hit
from retrieval.models import Chunk
from tests.factories import make_document

ANYONE = Principal()
LAW = """UNDANG-UNDANG NOMOR 9 TAHUN 2031
TENTANG KEUANGAN UJI

Pasal 1
Anggaran disusun setiap tahun oleh Pemerintah.

Pasal 2
(1) Anggaran disusun sesuai dengan kebutuhan penyelenggaraan pemerintahan.
(2) Dalam hal anggaran diperkirakan defisit, ditetapkan sumber pembiayaan untuk menutup defisit tersebut.

Pasal 3
Undang-Undang ini mulai berlaku pada tanggal diundangkan.

PENJELASAN
ATAS
UNDANG-UNDANG NOMOR 9 TAHUN 2031
TENTANG KEUANGAN UJI

I. UMUM
Keuangan negara dikelola secara tertib, taat pada peraturan perundang-undangan, efisien, ekonomis dan efektif.

II. PASAL DEMI PASAL
Pasal 1
Cukup jelas.
Pasal 2
Ayat (1)
Cukup jelas.
Ayat (2)
Defisit anggaran dimaksud dibatasi maksimal 3% dari Produk Domestik Bruto. Jumlah pinjaman dibatasi maksimal 60% dari Produk Domestik Bruto.
Pasal 3
Cukup jelas.
"""


def _read(document, principal=ANYONE, scope=None):
    body = Chunk.objects.filter(document=document, kind="body").order_by("ordinal")
    passages = [passage_from_hit(chunk_hit(c), "search") for c in body]
    return passages, with_explanations(passages, principal=principal, scope=scope or Scope())


@pytest.mark.django_db(transaction=True)
def test_an_article_is_followed_by_its_elucidation_when_it_says_something():
    law = make_document(text=LAW, title="Undang-Undang Nomor 9 Tahun 2031 tentang Keuangan Uji")
    passages, read = _read(law)
    explanations = [p for p in read if p.origin == EXPLANATION_ORIGIN]
    assert len(explanations) == 1 and explanations[0].kind == "penjelasan"
    assert "maksimal 3% dari Produk Domestik Bruto" in explanations[0].text
    # right after the article it explains, the article's own score kept
    article = next(p for p in passages if "sumber pembiayaan" in p.text)
    assert read[read.index(article) + 1] == explanations[0] and explanations[0].score == article.score
    assert len(read) == len(passages) + 1     # Pasal 1 and 3 are "Cukup jelas": nothing added for them


@pytest.mark.django_db(transaction=True)
def test_a_reader_who_may_not_see_the_document_gets_no_elucidation():
    law = make_document(text=LAW, title="Undang-Undang Nomor 9 Tahun 2031 tentang Keuangan Uji", confidential=True)
    admin = Principal(subject="admin", role="admin", verified=True)
    passages, read = _read(law, principal=admin)
    assert any(p.origin == EXPLANATION_ORIGIN for p in read)       # its reader sees the elucidation
    assert with_explanations(passages, principal=ANYONE, scope=Scope()) == passages


def test_an_elucidations_headings_and_clear_enough_are_not_units():
    text = ("Pasal 35 Ayat (1) Standar isi mencakup ruang lingkup materi. Ayat (2) Cukup jelas Ayat (3) Badan "
            "standardisasi bersifat mandiri pada tingkat nasional. Ayat (4) Cukup jelas")
    assert [u.text for u in passage_units(text, explanation=True)] == [
        "Standar isi mencakup ruang lingkup materi.", "Badan standardisasi bersifat mandiri pada tingkat nasional."]
    lines = "Pasal 12\nAyat (2)\nCukup jelas\nAyat (3)\nDefisit anggaran dimaksud dibatasi maksimal 3% dari PDB."
    assert [u.text for u in passage_units(lines)] == ["Defisit anggaran dimaksud dibatasi maksimal 3% dari PDB."]
