"""Yes/no openers a statute's own wording decides: spelled-out ranges, a rule waived for a range, a statement
without a modal, and a list whose item is what is asked (answering/extractive/yesno.py)."""
from __future__ import annotations

import dataclasses
import uuid

import pytest

from answering.extractive.candidates import candidates
from answering.extractive.layout import compose
from answering.extractive.question import read_question
from answering.extractive.synthesis import select, synthesise
from tests.answering.test_embedded_opener import passage

APPRENTICE = passage("(1) Ketentuan sebagaimana dimaksud dalam Pasal 20 dapat dikecualikan bagi peserta yang berumur "
                     "antara 16 (enam belas) tahun sampai dengan 18 (delapan belas) tahun untuk mengikuti magang "
                     "sepanjang tidak mengganggu waktu sekolah.")
LEVY = passage("Retribusi yang dibayarkan oleh pemilik kapal kepada UPTD pelabuhan dikurangkan dari tagihan sewa "
               "dermaga tahun berikutnya.")
COURT = passage("Mahkamah Syar'iyah bertugas dan berwenang memeriksa, memutus, dan menyelesaikan perkara di bidang:\n"
                "a. ahwal al-syakhsiyah;\nb. muamalah; dan\nc. jinayah.")


def test_a_range_spelled_out_in_words_decides_the_asked_quantity():
    # "16 (enam belas) tahun sampai dengan 18 (delapan belas) tahun": the spelled-out words sit inside the range.
    outside = synthesise("Bolehkah peserta umur 15 tahun ikut magang?", [APPRENTICE])
    assert outside.claims[0].text.startswith("Tidak. Ketentuan sebagaimana dimaksud dalam Pasal 20 dapat dikecualikan")
    inside = synthesise("Bolehkah peserta umur 17 tahun ikut magang?", [APPRENTICE])
    assert inside.claims[0].text.startswith("Ya. Ketentuan sebagaimana dimaksud dalam Pasal 20 dapat dikecualikan")


def test_a_statement_that_says_what_is_asked_answers_yes():
    draft = synthesise("Retribusi yang dibayar pemilik kapal bisa dikurangkan dari tagihan sewa dermaga?", [LEVY])
    assert draft.claims[0].text == ("Ya. Retribusi yang dibayarkan oleh pemilik kapal kepada UPTD pelabuhan "
                                    "dikurangkan dari tagihan sewa dermaga tahun berikutnya.")


def test_a_statement_that_says_only_the_second_ask_answers_the_first_nothing():
    # The levy clause answers "… dikurangkan dari tagihan sewa dermaga?", not whether small fishers park for free.
    draft = synthesise("nelayan kecil boleh parkir perahu di pelabuhan gratis gak? trus retribusi yang dibayar pemilik "
                       "kapal dikurangkan dari tagihan sewa dermaga?", [LEVY])
    assert draft.claims and not draft.claims[0].text.startswith(("Ya.", "Tidak."))


def test_a_statement_about_something_else_answers_nothing():
    # Two of the question's words are not most of them: the statement is quoted, no "Ya" is put before it.
    draft = synthesise("Apakah pemilik kapal bisa minta keringanan pajak kendaraan?", [LEVY])
    assert not draft.claims or not draft.claims[0].text.startswith(("Ya.", "Tidak."))


def test_a_list_whose_item_is_what_is_asked_answers_yes_with_that_item():
    draft = synthesise("Apakah Mahkamah Syar'iyah berwenang memutus perkara jinayah?", [COURT])
    assert draft.claims[0].text == ("Ya. Mahkamah Syar'iyah bertugas dan berwenang memeriksa, memutus, dan "
                                    "menyelesaikan perkara di bidang: jinayah.")


EVIDENCE = passage("(1) Informasi Elektronik dan/atau Dokumen Elektronik dan/atau hasil cetaknya merupakan alat bukti "
                   "hukum yang sah.")


@pytest.mark.django_db
def test_an_english_question_read_in_the_laws_words_answers_yes():
    # "legal evidence", "electronic": the glossary's "alat bukti hukum", "elektronik"; the unit states them, unnegated.
    from retrieval.facade.language import glossary_expansions

    draft = synthesise("Are electronic documents admissible as legal evidence in Indonesia?", [EVIDENCE],
                       expansions=glossary_expansions)
    assert draft.claims[0].text.startswith("Yes. Informasi Elektronik dan/atau Dokumen Elektronik")


@pytest.mark.django_db
def test_an_english_question_the_glossary_barely_reads_gets_no_yes():
    # Without three of the law's words, an English question's overlap with the unit decides nothing.
    from retrieval.facade.language import glossary_expansions

    draft = synthesise("Are printed chat logs accepted in Indonesia?", [EVIDENCE], expansions=glossary_expansions)
    assert not draft.claims or not draft.claims[0].text.startswith(("Yes.", "No."))


ALLOWANCE = passage("THR dan Gaji Ke-13 bagi PPPK berlaku ketentuan:\n"
                    "a. PPPK dengan masa kerja kurang dari 1 (satu) tahun diberikan THR secara proporsional sesuai "
                    "bulan bekerja;\n"
                    "b. PPPK yang masa kerja kurang dari 1 (satu) bulan kalender sebelum Hari Raya, tidak diberikan "
                    "THR; dan\n"
                    "c. PPPK yang sedang cuti di luar tanggungan negara tidak diberikan THR.")


@pytest.mark.parametrize("question,opening", [
    # 3 weeks is below one month and below one year: the narrower rule, a grant negated, decides.
    ("PPPK yang baru bekerja 3 minggu sebelum lebaran, dapat THR?", "Tidak. PPPK yang masa kerja kurang dari 1 bulan"),
    # 5 months is past the month rule and inside the year rule (said with the list's lead-in).
    ("PPPK yang baru bekerja 5 bulan sebelum lebaran, dapat THR?", "Ya. THR dan Gaji Ke-13 bagi PPPK berlaku ketentuan: "
                                                             "a. PPPK dengan masa kerja kurang dari 1 tahun diberikan THR"),
])
def test_a_duration_in_another_unit_meets_the_narrowest_range_that_holds_it(question, opening):
    draft = synthesise(question, [ALLOWANCE])
    assert draft.claims[0].text.startswith(opening)


METER = passage("(2) Meter air sebagaimana dimaksud pada ayat (1) wajib dipasang paling lama 1 (satu) bulan sejak "
                "dilakukan pendataan.", reference="Peraturan Gubernur Aceh Nomor 29 Tahun 2025 Pasal 5",
                title="Peraturan Gubernur Aceh Nomor 29 Tahun 2025 tentang Pajak Air Permukaan")


def test_a_regulations_number_and_year_are_not_a_duration_asked():
    # "Nomor 29 Tahun 2025" is a citation: read as 29 years it would fall outside "paling lama 1 bulan".
    draft = synthesise("Apakah Wajib Pajak Air Permukaan wajib memasang meter air menurut Peraturan Gubernur Aceh "
                       "Nomor 29 Tahun 2025, dan dalam jangka waktu berapa lama?", [METER])
    assert draft.claims[0].text.startswith("Ya. Meter air sebagaimana dimaksud pada ayat (1) wajib dipasang")


LIGHT_WORK = passage("Pengusaha yang mempekerjakan anak pada pekerjaan ringan harus memenuhi persyaratan:\n"
                     "a. izin tertulis dari orang tua atau wali;\n"
                     "b. waktu kerja maksimum 3 (tiga) jam; dan\n"
                     "c. dilakukan pada siang hari dan tidak mengganggu waktu sekolah.")


def test_an_age_in_years_is_never_measured_against_hours_of_work():
    # 14 years is not "more than 3 hours": a working day's length says nothing about the asked age.
    draft = synthesise("Anak umur 14 tahun boleh kerja ringan di warung?", [LIGHT_WORK])
    assert draft.claims and not draft.claims[0].text.startswith(("Ya.", "Tidak."))


PERMANENT_TRIAL = passage("(1) Perjanjian kerja untuk waktu tidak tertentu dapat mensyaratkan masa percobaan kerja paling "
                          "lama 3 (tiga) bulan.")


def test_a_permission_for_the_complement_of_what_is_asked_says_no_yes():
    # "waktu tidak tertentu" is the other contract: its permission does not answer "waktu tertentu" with a yes.
    asked = synthesise("Bolehkah perjanjian kerja waktu tertentu mensyaratkan masa percobaan?", [PERMANENT_TRIAL])
    assert not asked.claims or not asked.claims[0].text.startswith(("Ya.", "Tidak."))
    # Asked about the contract it names, the same clause says yes.
    same = synthesise("Bolehkah perjanjian kerja waktu tidak tertentu mensyaratkan masa percobaan?", [PERMANENT_TRIAL])
    assert same.claims[0].text.startswith("Ya. Perjanjian kerja untuk waktu tidak tertentu dapat mensyaratkan")


CONTRACT_WORDS = {"PKWT": "perjanjian kerja waktu tertentu", "karyawan tetap": "perjanjian kerja waktu tidak tertentu"}


def _contract_glossary(text: str) -> dict[str, str]:
    return {phrase: law for phrase, law in CONTRACT_WORDS.items() if phrase in text}


def test_the_complement_is_read_in_the_glossarys_words_too():
    # "PKWT" is the fixed-term contract: the permanent contract's permission is not a yes to it.
    asked = synthesise("Bolehkah pekerja kontrak (PKWT) diberi masa percobaan 3 bulan?", [PERMANENT_TRIAL],
                       expansions=_contract_glossary)
    assert not asked.claims or not asked.claims[0].text.startswith(("Ya.", "Tidak."))
    # "karyawan tetap" reads as "waktu tidak tertentu": the clause is about the case asked, and says yes.
    same = synthesise("Bolehkah karyawan tetap diberi masa percobaan 3 bulan?", [PERMANENT_TRIAL],
                      expansions=_contract_glossary)
    assert same.claims[0].text.startswith("Ya. Perjanjian kerja untuk waktu tidak tertentu dapat mensyaratkan")


PROTECTION = passage("Perlindungan bagi pekerja/buruh perempuan hamil dalam hubungan kerja tidak mengurangi hak "
                      "pengusaha atas pemutusan hubungan kerja karena kesalahan berat pekerja/buruh.")
DISMISSAL = passage("(1) Pengusaha dilarang melakukan pemutusan hubungan kerja dengan alasan:\n"
                    "a. pekerja/buruh berhalangan masuk kerja karena sakit menurut keterangan dokter;\n"
                    "b. pekerja/buruh menjalankan ibadah yang diperintahkan agamanya;\n"
                    "c. pekerja/buruh perempuan hamil, melahirkan, gugur kandungan, atau menyusui bayinya.")
DISMISSAL = dataclasses.replace(DISMISSAL, document_id=PROTECTION.document_id)     # one law's two articles


@pytest.mark.django_db
def test_an_english_question_is_answered_no_by_a_kept_list_whose_item_names_the_case():
    # The lead unit (a protection that keeps the employer's right) says neither yes nor no; the dismissal list's
    # item names the pregnancy, and the glossary reads "fire", "employer", "pregnant" as the law's "pemutusan
    # hubungan kerja", "pengusaha", "hamil".
    from retrieval.facade.language import glossary_expansions

    draft = synthesise("Can my employer fire me because I got pregnant?", [PROTECTION, DISMISSAL],
                       expansions=glossary_expansions)
    assert draft.claims[0].text == ("No. Pengusaha dilarang melakukan pemutusan hubungan kerja dengan alasan: "
                                    "pekerja/buruh perempuan hamil, melahirkan, gugur kandungan, atau menyusui bayinya.")


WAGES_PAID = passage("(2) Ketentuan sebagaimana dimaksud pada ayat (1) tidak berlaku, dan pengusaha wajib membayar upah "
                     "apabila:\na. pekerja/buruh sakit sehingga tidak dapat melakukan pekerjaan;\nb. pekerja/buruh "
                     "perempuan yang sakit pada hari pertama dan kedua masa haidnya sehingga tidak dapat melakukan "
                     "pekerjaan; dan\nc. pekerja/buruh melaksanakan hak istirahat.")
MENSTRUAL_LEAVE = dataclasses.replace(
    passage("(1) Pekerja/buruh perempuan yang dalam masa haid merasakan sakit dan memberitahukan kepada pengusaha, "
            "tidak wajib bekerja pada hari pertama dan kedua pada waktu haid."),
    document_id=WAGES_PAID.document_id)


def test_an_obligation_asked_is_answered_no_by_a_kept_clause_that_exempts_from_it():
    # The lead (a wage list) says nothing on the duty; the next kept unit's "tidak wajib bekerja" does.
    draft = synthesise("Pekerja perempuan yang lagi haid dan sakit wajib tetap masuk kerja di hari pertama?",
                       [WAGES_PAID, MENSTRUAL_LEAVE])
    assert draft.claims[0].text.startswith("Tidak. Pekerja/buruh perempuan yang dalam masa haid merasakan sakit")
    # Asked whether it is allowed (not whether it is a duty), the exemption decides nothing.
    asked = synthesise("Pekerja perempuan yang lagi haid dan sakit boleh tetap masuk kerja di hari pertama?",
                       [WAGES_PAID, MENSTRUAL_LEAVE])
    assert not asked.claims or not asked.claims[0].text.startswith("Tidak.")


NIGHT_WORK = passage("(1) Pengusaha dilarang mempekerjakan pekerja/buruh perempuan hamil yang menurut keterangan dokter "
                     "berbahaya bagi kesehatan kandungannya apabila bekerja antara pukul 23.00 s.d. pukul 07.00.\n"
                     + "\n".join(f"({n}) Pengusaha yang mempekerjakan pekerja/buruh perempuan pada malam hari wajib "
                                 f"memenuhi ketentuan keselamatan kerja angka {n} yang diatur dalam peraturan ini dengan "
                                 f"pemeriksaan kesehatan berkala setiap bulan." for n in range(2, 8)),
                     title="Undang-Undang Contoh Nomor 3 Tahun 2003 tentang Ketenagakerjaan")


@pytest.mark.django_db
def test_the_unit_that_says_no_displaces_filler_and_may_come_from_the_instruments_other_copy():
    # The model rates the night-work ayat best (as e5 does on the real law); they say nothing on dismissal and fill
    # the answer's length. The dismissal list, in a second copy of the same law (same title, another document),
    # says no: it takes the place of the filler, and the answer opens with it.
    from retrieval.facade.language import glossary_expansions

    copy = dataclasses.replace(DISMISSAL, document_id=uuid.uuid4(), document_title=NIGHT_WORK.document_title)
    question = read_question("Can my employer fire me because I got pregnant?", expansions=glossary_expansions)
    ranked = candidates(question, [NIGHT_WORK, copy], None)
    # Scores as the semantic ranker gave them: the night-work ayat first, the list within the keep margin.
    ranked = sorted((dataclasses.replace(c, score=-0.5 if c.passage is copy else -0.1 * c.position) for c in ranked),
                    key=lambda c: -c.score)
    chosen = select(question, ranked)
    assert any(c.passage is copy for c, _ in chosen)
    assert compose(question, chosen, "en")[0].text == (
        "No. Pengusaha dilarang melakukan pemutusan hubungan kerja dengan alasan: pekerja/buruh perempuan hamil, "
        "melahirkan, gugur kandungan, atau menyusui bayinya.")
    # Another instrument's list (another title) is not this focused answer's to quote.
    other = dataclasses.replace(copy, document_title="Peraturan Lain Nomor 1 Tahun 2020")
    ranked = [dataclasses.replace(c, passage=other) if c.passage is copy else c for c in ranked]
    assert not any(c.passage is other for c, _ in select(question, ranked))


FIXED_TERM_TRIAL = passage("(1) Perjanjian kerja untuk waktu tertentu tidak dapat mensyaratkan adanya masa percobaan kerja.")


@pytest.mark.django_db
def test_a_second_units_prohibition_answers_an_english_question_read_in_the_laws_words():
    # The best unit says nothing of a probation period; a kept unit's "tidak dapat" governs the glossary's words
    # for "fixed-term contract" and "probation period": it says no, in English.
    from answering.extractive.yesno import polarity_opener
    from retrieval.facade.language import glossary_expansions

    asked = read_question("Can an employer put a worker on a fixed-term contract (PKWT) through a probation period?",
                          expansions=glossary_expansions)
    unit = candidates(asked, [FIXED_TERM_TRIAL], None)[0]
    assert polarity_opener(asked, unit, "en") == ("No. Perjanjian kerja untuk waktu tertentu tidak dapat mensyaratkan "
                                                  "adanya masa percobaan kerja.")
    other = read_question("Can an employer cut the wages of a pregnant worker?", expansions=glossary_expansions)
    assert polarity_opener(other, candidates(other, [FIXED_TERM_TRIAL], None)[0], "en") is None


FREE_SCHOOLING = passage("Pemerintah dan Pemerintah Daerah menjamin terselenggaranya wajib belajar 9 (sembilan) tahun "
                         "pada jenjang pendidikan dasar tanpa memungut biaya.")


def test_a_duty_that_holds_without_the_asked_action_answers_no():
    # "wajib belajar … tanpa memungut biaya": charging is what the duty is held without, so "may they charge?" is no.
    charge = synthesise("Apakah pemerintah boleh memungut biaya untuk wajib belajar pendidikan dasar?", [FREE_SCHOOLING])
    assert charge.claims[0].text.startswith("Tidak. Pemerintah dan Pemerintah Daerah menjamin terselenggaranya")
    # Asked whether it is free, the same clause says yes.
    free = synthesise("Apakah wajib belajar pendidikan dasar tanpa memungut biaya?", [FREE_SCHOOLING])
    assert free.claims[0].text.startswith("Ya. Pemerintah dan Pemerintah Daerah menjamin terselenggaranya")


def test_of_two_kept_units_saying_opposite_things_the_one_ruling_more_of_the_ask_says_it():
    """The ranker's lead permits something the asker mentions ("dapat mensyaratkan masa percobaan"); the next ayat
    prohibits what is asked ("dilarang membayar upah di bawah upah minimum"): that one answers."""
    probation = passage("(1) Perjanjian kerja untuk waktu tidak tertentu dapat mensyaratkan masa percobaan kerja paling "
                        "lama 3 (tiga) bulan.\n(2) Dalam masa percobaan kerja sebagaimana dimaksud dalam ayat (1), "
                        "pengusaha dilarang membayar upah di bawah upah minimum yang berlaku.")
    draft = synthesise("perjanjian kerja tidak tertentu, masih masa percobaan kerja 3 bln. boleh gak pengusaha bayar di "
                       "bawah minimum selama percobaan?", [probation])
    assert draft.claims[0].text.startswith("Tidak. Dalam masa percobaan kerja")
    # Asked about the probation itself, the permission still answers.
    asked = synthesise("Apakah perjanjian kerja untuk waktu tidak tertentu dapat mensyaratkan masa percobaan kerja?",
                       [probation])
    assert asked.claims[0].text.startswith("Ya. Perjanjian kerja untuk waktu tidak tertentu")


NO_EXTRA_FEE = passage("Perlakuan khusus kepada masyarakat tertentu diberikan tanpa tambahan biaya.")


def test_a_modal_answers_the_first_ask_by_its_own_words_not_a_second_asks():
    # "tambahan" is the second ask's word: the no-fee clause says nothing about being served first.
    draft = synthesise("lansia boleh didahulukan pas antre di kantor gak? trus harus bayar tambahan?", [NO_EXTRA_FEE])
    assert not draft.claims or not draft.claims[0].text.startswith("Ya.")
    # Asked first, the same clause answers it.
    draft = synthesise("perlakuan khusus buat masyarakat diberikan tanpa tambahan gak?", [NO_EXTRA_FEE])
    assert draft.claims[0].text.startswith("Ya. Perlakuan khusus kepada masyarakat tertentu diberikan tanpa")


SELECTION_DEADLINE = passage("Untuk kesinambungan program dan kegiatan BMA, pemilihan Tenaga Profesional dilaksanakan "
                             "paling lambat 3 (tiga) bulan sebelum masa keanggotaan Tenaga Profesional berakhir.")


def test_a_range_of_another_matter_says_no_yes():
    # "3 bulan" falls inside "paling lambat 3 bulan", but a selection deadline says nothing about a probation period.
    draft = synthesise("Bolehkah pekerja kontrak diberi masa percobaan 3 bulan?", [SELECTION_DEADLINE])
    assert not draft.claims or not draft.claims[0].text.startswith(("Ya.", "Tidak."))
    # (The probation rule itself still decides by its range: test_the_complement_is_read_in_the_glossarys_words_too.)


CRITERIA = passage("(4) Penerima Bantuan Biaya Pendidikan sebagaimana dimaksud pada ayat (1) wajib memenuhi kriteria:\n"
                   "a. Anak Yatim dan/atau Piatu;\nb. berusia 7 (tujuh) tahun sampai dengan 21 (dua puluh satu) tahun.")


def test_a_list_items_range_is_read_with_its_lead_in():
    # The item "berusia 7 … sampai dengan 21 tahun" shares no word with the question; its lead-in does.
    draft = synthesise("Anak yatim yang sudah berumur 22 tahun masih bisa dapat bantuan biaya pendidikan?", [CRITERIA])
    assert draft.claims[0].text.startswith("Tidak.") and "21" in draft.claims[0].text
