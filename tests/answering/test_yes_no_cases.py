"""Whose case a yes/no rule decides: a rule for a narrower case than the one asked says neither yes nor no, and an
age asked without its unit is read in years (answering/extractive/yesno.py, quantities.py)."""
from __future__ import annotations

from answering.extractive.quantities import asked_quantities
from answering.extractive.synthesis import synthesise
from tests.answering.test_embedded_opener import passage

MINORS_AT_NIGHT = passage("(1) Pekerja/buruh perempuan yang berumur kurang dari 18 (delapan belas) tahun dilarang "
                          "dipekerjakan antara pukul 23.00 s.d. 07.00.")
PREGNANT_AT_NIGHT = passage("(2) Pengusaha dilarang mempekerjakan pekerja/buruh perempuan hamil yang menurut keterangan "
                            "dokter berbahaya bagi kesehatan dan keselamatan kandungannya apabila bekerja antara pukul "
                            "23.00 s.d. pukul 07.00.")
RESIGNED_CANDIDATE = passage("Calon PNS yang mengundurkan diri pada saat menjalani masa percobaan dikenakan sanksi tidak "
                             "boleh mengikuti seleksi pengadaan PNS untuk jangka waktu tertentu.")
CHILD_WORK = passage("(2) Anak sebagaimana dimaksud pada ayat (1) paling sedikit berumur 14 (empat belas) tahun.")


def _opening(question: str, *units) -> str:
    return synthesise(question, list(units)).claims[0].text


def test_a_prohibition_for_a_narrower_case_than_asked_says_neither_yes_nor_no():
    # Asked about women at night in general, the ban on those under 18 or pregnant is quoted, not read as "Tidak".
    for unit in (MINORS_AT_NIGHT, PREGNANT_AT_NIGHT):
        assert not _opening("pekerja perempuan boleh kerja malam antara pukul 23.00 s.d. 07.00?", unit).startswith(
            "Tidak.")
    assert not _opening("PNS boleh ikut seleksi pengadaan PNS gak?", RESIGNED_CANDIDATE).startswith("Tidak.")
    # Asked about the case the rule narrows to, the same rule answers.
    assert _opening("pekerja perempuan umur 17 tahun boleh kerja antara pukul 23.00 s.d. 07.00?",
                    MINORS_AT_NIGHT).startswith("Tidak.")
    assert _opening("calon PNS yang mengundurkan diri saat masa percobaan boleh ikut seleksi pengadaan PNS lagi?",
                    RESIGNED_CANDIDATE).startswith("Tidak.")


def test_a_qualifier_that_names_no_other_case_does_not_narrow():
    # "upah minimum yang berlaku" is the minimum wage itself: the prohibition still answers.
    ban = passage("Pengusaha dilarang membayar upah di bawah upah minimum yang berlaku.")
    assert _opening("Bolehkah pengusaha membayar upah di bawah upah minimum?", ban).startswith("Tidak.")


def test_an_age_asked_without_its_unit_is_read_in_years():
    assert asked_quantities("anak aku umur 14 mau bantu2 kerja") == [(14.0, "tahun")]
    assert asked_quantities("usia 17, boleh?") == [(17.0, "tahun")]
    assert asked_quantities("Nomor 14 Tahun 2008") == []
    # "paling sedikit berumur 14 tahun": the age's word between the bound and its number still bounds it.
    assert _opening("anak aku umur 14 boleh kerja gak?", CHILD_WORK).startswith("Ya. Anak")
    assert _opening("anak aku umur 13 boleh kerja gak?", CHILD_WORK).startswith("Tidak. Anak")


def test_a_clause_sharing_only_what_its_subject_names_rules_nothing_asked():
    # "kerja" is in the question ("pekerja") and in the clause, but the subject before the modal says it too ("serikat
    # pekerja … perjanjian kerja bersama"): the rule is about agreements, not about holding a worker's diploma.
    agreements = passage("(2) Dalam hal di perusahaan tidak ada lagi serikat pekerja/serikat buruh dan perjanjian kerja "
                         "bersama diganti dengan peraturan perusahaan, maka ketentuan yang ada dalam peraturan perusahaan "
                         "tidak boleh lebih rendah dari ketentuan yang ada dalam perjanjian kerja bersama.")
    assert not _opening("boleh gak pengusaha menahan ijazah pekerja?", agreements).startswith(("Tidak.", "Ya."))
    # A clause carrying what is asked beyond its subject still answers.
    ban = passage("Pengusaha dilarang mempekerjakan anak.")
    assert _opening("boleh gak pengusaha mempekerjakan anak?", ban).startswith("Tidak.")


def test_one_condition_of_a_requirements_list_is_no_yes():
    # "di bawah pengawasan" is not "di bawah umur": a condition on employing a child does not say it is allowed.
    conditions = passage("(2) Pengusaha yang mempekerjakan anak sebagaimana dimaksud dalam ayat (1) wajib memenuhi "
                         "syarat:\na. di bawah pengawasan langsung dari orang tua atau wali;\nb. waktu kerja paling lama "
                         "3 (tiga) jam sehari; dan\nc. dilakukan pada siang hari.")
    assert not _opening("boleh gak pengusaha mempekerjakan anak di bawah umur?", conditions).startswith("Ya.")
    # A list that grants ("berwenang … di bidang:") still says yes for the item that names the case.
    powers = passage("Mahkamah Syar'iyah berwenang memeriksa dan memutus perkara di bidang:\na. ahwal al-syakhshiyah;"
                     "\nb. muamalah; dan\nc. jinayah.")
    assert _opening("apakah Mahkamah Syar'iyah berwenang memutus perkara jinayah?", powers).startswith("Ya.")
