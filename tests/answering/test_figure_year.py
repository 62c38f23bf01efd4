"""A figure's own unit dates it: a question for another year is declined with a pointer, not answered with it."""
from __future__ import annotations

import uuid

from answering.extractive.synthesis import synthesise
from answering.types import Passage

TITLE = ("Peraturan Contoh Nomor 31 Tahun 2025 tentang Pengeluaran Daerah Mendahului Penetapan Anggaran Tahun "
         "Anggaran 2026")
ALLOCATION = Passage(uuid.uuid4(), uuid.uuid4(), TITLE, "Peraturan Contoh Nomor 31 Tahun 2025 Pasal 4", ("Pasal 4",),
                     "body", "(1) Alokasi pengeluaran daerah mendahului anggaran Tahun Anggaran 2026 sebesar "
                     "Rp853.556.949.825,00.\n(2) Alokasi pengeluaran daerah sebagaimana dimaksud pada ayat (1) dihitung "
                     "dari belanja daerah Tahun Anggaran 2025.", 1.0, {})


def test_a_figure_asked_for_another_year_than_its_unit_states_is_declined_with_a_pointer():
    draft = synthesise("Berapa alokasi pengeluaran daerah mendahului anggaran Tahun Anggaran 2025?", [ALLOCATION])
    assert draft.no_answer
    assert "year 2025" in draft.unmet
    assert draft.pointer and "2025" in draft.pointer


def test_the_same_figure_asked_for_its_own_year_is_answered():
    draft = synthesise("Berapa alokasi pengeluaran daerah mendahului anggaran Tahun Anggaran 2026?", [ALLOCATION])
    assert not draft.no_answer
    assert "Rp853.556.949.825,00" in draft.claims[0].text


def test_another_quoted_unit_naming_the_year_does_not_date_the_figure():
    from answering.extractive.answerability import assess
    from answering.types import Claim

    figure = "Alokasi pengeluaran daerah mendahului anggaran Tahun Anggaran 2026 sebesar Rp853.556.949.825,00."
    beside = "Batas atas uang persediaan sebesar 1/12 dari belanja barang dan jasa Tahun Anggaran 2025."
    claims = (Claim(figure, (ALLOCATION.label,)), Claim(beside, (ALLOCATION.label,)))
    asked = "Berapa alokasi pengeluaran daerah mendahului anggaran Tahun Anggaran 2025?"
    assert "year 2025" in assess(asked, claims, [ALLOCATION]).unmet
    assert "year 2026" not in assess(asked.replace("2025", "2026"), claims, [ALLOCATION]).unmet
    # A figure whose unit names no year, or cites an instrument's number, is dated by the rest as before.
    undated = (Claim("Alokasi pengeluaran daerah mendahului anggaran sebesar Rp853.556.949.825,00 sesuai Peraturan "
                     "Contoh Nomor 31 Tahun 2024.", (ALLOCATION.label,)), claims[1])
    assert "year 2025" not in assess(asked, undated, [ALLOCATION]).unmet


def test_a_figure_reckoned_from_the_year_before_answers_the_year_its_instrument_is_about():
    """"Sebelum APBA 2026 ditetapkan, berapa batas atas UP?": the instrument is about 2026 (its title says so) and its
    unit reckons the limit from the 2025 budget; the earlier year in the unit does not make 2026 unmet."""
    from answering.extractive.answerability import assess
    from answering.types import Claim

    limit = Claim("Batas atas uang persediaan sebesar 1/12 dari belanja barang dan jasa Tahun Anggaran 2025.",
                  (ALLOCATION.label,))
    asked = "Sebelum anggaran 2026 ditetapkan, berapa batas atas uang persediaan?"
    assert "year 2026" not in assess(asked, (limit,), [ALLOCATION]).unmet
    # Another instrument, about no year: the unit's own year still dates the figure.
    other = Passage(uuid.uuid4(), uuid.uuid4(), "Peraturan Contoh Nomor 9 Tahun 2025 tentang Uang Persediaan",
                    "Peraturan Contoh Nomor 9 Tahun 2025 Pasal 5", ("Pasal 5",), "body", limit.text, 1.0, {})
    assert "year 2026" in assess(asked, (Claim(limit.text, (other.label,)),), [other]).unmet
