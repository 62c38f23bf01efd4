"""The embedded answerer says the answer first: one opening sentence per question kind, checked like any claim."""
from __future__ import annotations

import uuid

import pytest

from answering.extractive.question import read_question
from answering.extractive.synthesis import synthesise
from answering.faithfulness import faithfulness_gate, render_answer
from answering.types import AnswerDraft, Claim, Passage

TITLE = "Peraturan Contoh Nomor 7 Tahun 2024 tentang Layanan Informasi"


def passage(text: str, *, reference: str | None = "Peraturan Contoh Nomor 7 Tahun 2024 Pasal 5", kind: str = "body",
            origin: str = "search", title: str = TITLE) -> Passage:
    return Passage(uuid.uuid4(), uuid.uuid4(), title, reference, ("Pasal 5",), kind, text, 1.0, {}, origin=origin)


WAGE = passage("KESATU : Menetapkan Upah Minimum Provinsi (UMP) Aceh Tahun 2026 sebesar Rp3.932.552,00 (tiga juta sembilan "
               "ratus tiga puluh dua ribu lima ratus lima puluh dua rupiah).",
               title="Keputusan Gubernur Aceh Nomor 500.15.14.1/1488/2025 tentang Upah Minimum Provinsi Aceh Tahun 2026")
DEADLINE = passage("(1) PPID wajib memberikan jawaban tertulis atas permohonan informasi paling lambat 10 (sepuluh) hari "
                   "kerja sejak permohonan diterima.\n(2) PPID dapat memperpanjang waktu sebagaimana dimaksud pada ayat "
                   "(1) paling lambat 7 (tujuh) hari kerja.")
BAN = passage("Pengusaha dilarang membayar upah lebih rendah dari upah minimum provinsi.")
DUTY = passage("Setiap kota wajib menyediakan ruang terbuka hijau paling sedikit 30% (tiga puluh persen) dari luas wilayah.")
CLOSING = passage("Ditetapkan di Banda Aceh\npada tanggal 12 Juni 2024\nGUBERNUR ACEH,\nttd\nAMIRUDDIN YUSUF", kind="closing",
                  origin="closing", reference=None)
ACTING = passage("Ditetapkan di Banda Aceh\npada tanggal, 30 Januari 2025\n30 Rajab 1446\n\nPj. GUBERNUR ACEH\n\nSAFRIZAL ZA",
                 kind="closing", origin="closing", reference=None)
# UU 27/2022's closing chunk as its text layer reads: the Penjelasan's heading, misread ("PENJEI,ASAN … TET\\ITANG"),
# runs on after the registration line, and its capitals outrank the enactment line.
REGISTERED = passage("Agar setiap orang mengetahuinya, memerintahkan pengundangan Undang-Undang ini dengan penempatannya "
                     "dalam Lembaran Negara Republik Indonesia. Disahkan di Jakarta pada tanggal 17 Oktober 2022 ttd JOKO "
                     "WIDODO Diundangkan di Jakarta pada tanggd 17 Oktober 2022 MENTERI SEKRETARIS NEGARA REPUBLIK "
                     "INDONESIA, ttd. PRATIKNO LEMBARAN NEGARA REPUBLIK INDONESIA TAHUN 2022 NOMOR 196 I PENJEI,ASAN ATAS "
                     "UNDANG-UNDANG REPUBUK INDONESI,A NOMOR 27 TAHVN 2022 TET\\ITANG PELINDUNGAN DATA PRIBADI UMUM "
                     "Ferkembangan teknologi informasi dan komurikasi yang melaju dengan pesat telah menimbulkan berbagai "
                     "peluang dan tantangan.", kind="closing", origin="closing", reference=None,
                     title="Undang-Undang Nomor 27 Tahun 2022 tentang Pelindungan Data Pribadi")
STAGES = passage("(1) Pembentukan dana abadi dilakukan dengan tahapan:\na. persiapan;\nb. penilaian; dan\nc. penetapan.")


@pytest.mark.parametrize("question,asks", [
    ("Berapa UMP Aceh 2026?", "figure"),
    ("brp lama PPID wajib kasih jawaban?", "duration"),
    ("Boleh gak pengusaha bayar di bawah upah minimum?", "yesno"),
    ("Do cities have to provide green open space?", "yesno"),
    ("Siapa yang menandatangani peraturan ini?", "signatory"),
    ("Apa saja tahapan pembentukan dana abadi?", "list"),
    ("Apa yang dimaksud dengan PPID?", "definition"),
    # "No." before a number ends no sentence: the question is not "17 of 2003 …?", a bare yes/no.
    ("What is the highest fine allowed under Law No. 8 of 1999 on Consumer Protection?", "figure"),
    ("Berapa denda paling tinggi menurut UU No. 8 Tahun 1999?", "figure"),
    # English asks for a quantity or a frequency the way "berapa" does.
    ("How large a plot may a farmer clear?", "figure"),
    ("How often must the regional fair be held?", "duration"),
    # A list asked for in chat ("apa aja", "siapa aja") or as a plural noun ("Which districts …").
    ("dokumen apa aja yg harus dibawa?", "list"),
    ("Which districts make up the new regency?", "list"),
    ("Which is the court that hears it?", "general"),
    # Whether an instrument still holds, asked in chat or as "still a valid …".
    ("qanun 5/2020 msh berlaku gak?", "status"),
    ("apakah perda lama itu sekarang masih dipake?", "status"),
    ("Is PP 12/2019 still a valid legal basis?", "status"),
    # What the asker says first is context; the ask is the sentence that asks.
    ("Kontrak saya habis tahun depan. Apakah saya berhak uang pisah, dan kapan dibayar?", "yesno"),
])
def test_the_question_is_read_once_into_what_it_asks(question, asks):
    assert read_question(question).asks == asks


@pytest.mark.parametrize("question,source,first", [
    # A decree's "Menetapkan" is the act of deciding: the sentence states what it set.
    ("Berapa UMP Aceh tahun 2026?", WAGE, "Upah Minimum Provinsi (UMP) Aceh Tahun 2026 sebesar Rp3.932.552,00."),
    ("Berapa lama PPID wajib menjawab permohonan informasi?", DEADLINE,
     "Paling lambat 10 hari kerja sejak permohonan diterima."),
    ("Boleh gak pengusaha membayar upah lebih rendah dari upah minimum?", BAN,
     "Tidak. Pengusaha dilarang membayar upah lebih rendah dari upah minimum provinsi."),
    ("Apakah kota wajib menyediakan ruang terbuka hijau?", DUTY,
     "Ya. Setiap kota wajib menyediakan ruang terbuka hijau paling sedikit 30% dari luas wilayah."),
    ("Siapa yang menandatangani peraturan ini?", CLOSING,
     "Ditetapkan di Banda Aceh pada tanggal 12 Juni 2024 oleh Gubernur Aceh Amiruddin Yusuf."),
    # An acting governor (Pergub Aceh 5/2025) signs as one: "Pj." is part of the office.
    ("Siapa yang menandatangani peraturan ini?", ACTING,
     "Ditetapkan di Banda Aceh pada tanggal 30 Januari 2025 oleh Pj. Gubernur Aceh Safrizal ZA."),
    # Who signed is said by the enactment line, not by the capitals of the registration line after it.
    ("Siapa yang menandatangani Undang-Undang Nomor 27 Tahun 2022?", REGISTERED,
     "Disahkan di Jakarta pada tanggal 17 Oktober 2022 oleh Joko Widodo."),
    ("Apa saja tahapan pembentukan dana abadi?", STAGES,
     "Pembentukan dana abadi dilakukan dengan tahapan: persiapan, penilaian, dan penetapan."),
])
def test_each_kind_opens_with_a_plain_sentence_citing_its_passage(question, source, first):
    draft = synthesise(question, [source])
    assert not draft.no_answer
    assert draft.claims[0].text == first and draft.claims[0].citation_keys == (source.label,)
    # The opener is a claim like any other: the gate checks it against its passage and keeps it.
    gate = faithfulness_gate(draft, {source.label: source.text}, partial_answers=False)
    assert gate.kept[0].text == first and not gate.fallback_used


def test_the_supporting_text_follows_under_its_article_heading_with_ayat_as_list_items():
    draft = synthesise("Berapa lama PPID wajib menjawab permohonan informasi?", [DEADLINE])
    quoted = draft.claims[1:]
    assert quoted[0].heading == "Peraturan Contoh Nomor 7 Tahun 2024 Pasal 5" and quoted[0].layout == "list_item"
    assert quoted[0].text.startswith("(1) PPID wajib memberikan jawaban tertulis")
    text = render_answer(draft.framing, draft.claims)
    assert text.startswith("Paling lambat 10 hari kerja sejak permohonan diterima [chunk:")
    assert "\n\n**Peraturan Contoh Nomor 7 Tahun 2024 Pasal 5**\n- (1) PPID wajib" in text


def test_an_english_yes_no_opener_is_english():
    draft = synthesise("Is the pengusaha allowed to pay upah lebih rendah dari upah minimum?", [BAN])
    assert draft.claims[0].text.startswith("No. Pengusaha dilarang membayar upah")


def test_an_opener_stating_a_figure_the_passage_does_not_hold_is_dropped_by_the_gate():
    wrong = AnswerDraft(framing="", claims=(Claim("Tidak. Pengusaha dilarang membayar upah lebih rendah dari Rp4.000.000.",
                                                  (BAN.label,)),))
    gate = faithfulness_gate(wrong, {BAN.label: BAN.text}, partial_answers=False)
    assert gate.fallback_used and gate.verdicts[0].reason == "number_mismatch"


def test_a_document_number_year_never_satisfies_a_year_constraint():
    # The 2026 decree is numbered …/2025: asked about 2025, it does not answer.
    declined = synthesise("Berapa UMP Aceh tahun 2025?", [WAGE])
    assert declined.no_answer and "year 2025" in declined.unmet
    assert not synthesise("Berapa UMP Aceh tahun 2026?", [WAGE]).no_answer


def test_a_signature_block_is_never_quoted_unless_the_question_asks_who_signed_or_when():
    body = passage("Peraturan ini mengatur standar layanan informasi publik di lingkungan Pemerintah Aceh.\n"
                   "Ditetapkan di Banda Aceh pada tanggal 12 Juni 2024 GUBERNUR ACEH, AMIRUDDIN YUSUF")
    draft = synthesise("Apa yang diatur tentang standar layanan informasi publik?", [body])
    assert draft.claims and not any("Ditetapkan di" in claim.text for claim in draft.claims)


def test_a_list_cut_short_says_how_many_items_were_left_out():
    # Past the bound a list question's list is quoted to (units.ASKED_LIST_ITEMS, 20).
    items = "\n".join(f"{n + 1}. kewajiban nomor {n + 1} dalam pengelolaan dana abadi pendidikan;" for n in range(26))
    source = passage(f"(1) Pengelola dana abadi mempunyai kewajiban:\n{items}")
    draft = synthesise("Apa saja kewajiban pengelola dana abadi?", [source])
    heading = next(claim.heading for claim in draft.claims if claim.heading)
    shown = sum(1 for claim in draft.claims if claim.layout == "list_item")
    assert shown < 26 and f"({shown} dari 26 butir ditampilkan)" in heading


def test_text_a_broken_font_left_behind_is_never_quoted():
    garbled = passage("FE o.IJ 0.p. oN N to N N od d! 6E ! (d E OJ ooli C6 j cU Ji u0 o E i( ) dli. pekerja hamil")
    assert synthesise("Bolehkah pekerja hamil diberhentikan?", [garbled]).no_answer
    rule = passage("Pengusaha dilarang memberhentikan pekerja perempuan yang hamil.")
    draft = synthesise("Bolehkah pekerja hamil diberhentikan?", [garbled, rule])
    assert draft.claims[0].text == "Tidak. Pengusaha dilarang memberhentikan pekerja perempuan yang hamil."
    assert all(claim.citation_keys == (rule.label,) for claim in draft.claims)


def test_who_signed_is_answered_without_the_distribution_list():
    block = passage("Ditetapkan di Banda Aceh\npada tanggal, 30 Desember 2025\nGUBERNUR ACEH,\nTtd.\nMUZAKIR MANAF\n"
                    "SALINAN - dari Keputusan ini disampaikan kepada\n1. Menteri Dalam Negeri RI;\n2. Inspektur Aceh.",
                    kind="closing", origin="closing", reference=None)
    draft = synthesise("Siapa yang menandatangani keputusan ini?", [block])
    assert draft.claims[0].text == "Ditetapkan di Banda Aceh pada tanggal 30 Desember 2025 oleh Gubernur Aceh Muzakir Manaf."
    assert not any("disampaikan kepada" in claim.text for claim in draft.claims)


def _signed_and_promulgated(first: str, second: str) -> list[Passage]:
    """A law's signature block split across two closing chunks, the promulgation's chunk ranked first."""
    title, law = "Undang-Undang Contoh Nomor 9 Tahun 2008 tentang Contoh", uuid.uuid4()
    return [Passage(uuid.uuid4(), law, title, None, ("Penutup",), "closing", text, 1.0, {}, origin="closing")
            for text in (second, first)]


SIGNED = "Disahkan di Jakarta pada tanggal 30 April 2008 PRESIDEN REPUBLIK INDONESIA, ttd. SUSILO BAMBANG YUDHOYONO"
PROMULGATED = ("Diundangkan di Jakarta pada tanggal 30 April 2008 MENTERI HUKUM DAN HAK ASASI MANUSIA REPUBLIK "
               "INDONESIA, ttd. ANDI MATTALATTA")


def test_who_signed_is_read_from_the_enactment_line_not_the_promulgation():
    draft = synthesise("Siapa yang menandatangani UU Contoh Nomor 9 Tahun 2008?", _signed_and_promulgated(SIGNED, PROMULGATED))
    first = draft.claims[0].text
    assert "Susilo Bambang Yudhoyono" in first and "Mattalatta" not in first
    asked = synthesise("Kapan UU Contoh Nomor 9 Tahun 2008 diundangkan dan oleh siapa?",
                       _signed_and_promulgated(SIGNED, PROMULGATED))
    assert "Mattalatta" in asked.claims[0].text


def test_still_in_force_is_answered_no_by_the_clause_revoking_the_named_regulation():
    revoking = passage("Pada saat Peraturan Pemerintah ini mulai berlaku, Peraturan Pemerintah Nomor 58 Tahun 2005 "
                       "tentang Pengelolaan Contoh dicabut dan dinyatakan tidak berlaku.",
                       reference="Peraturan Pemerintah Nomor 12 Tahun 2019 Pasal 223")
    draft = synthesise("Apakah Peraturan Pemerintah Nomor 58 Tahun 2005 masih berlaku?", [revoking])
    assert draft.claims and draft.claims[0].text.startswith("Tidak.")
    # The same clause does not answer for another regulation.
    other = synthesise("Apakah Peraturan Pemerintah Nomor 7 Tahun 2010 masih berlaku?", [revoking])
    assert not (other.claims and other.claims[0].text.startswith("Tidak."))


@pytest.mark.parametrize("question,asks", [
    ("Berapa lama cuti tahunan pegawai dan kapan cuti itu harus diajukan?", "duration"),
    ("Sebelum anggaran disahkan, berapa batas uang persediaan dinas dan kapan peraturan ini mulai berlaku?", "figure"),
    ("keputusan itu ditetapkan tgl brp? yg teken siapa?", "enactment"),
    ("retribusi pasar tuh apaan sih, brp persen & yg mungut siapa?", "definition"),
    ("What is the maximum fine for late tax payment, and who collects it?", "figure"),
    ("Menurut qanun ini, jika nilai pajak melebihi batas, kapan wajib pajak harus melapor?", "date"),
])
def test_a_question_asking_two_things_is_answered_first_for_its_first_ask(question, asks):
    assert read_question(question).asks == asks


def test_a_second_ask_s_duty_word_does_not_pick_the_unit_that_answers_the_first():
    appeal = passage("(1) Keberatan atas penolakan izin reklame diajukan paling lama 14 (empat belas) hari kerja sejak "
                     "penolakan diterima.\n(2) Kepala dinas wajib memutus keberatan paling lama 10 (sepuluh) hari kerja "
                     "sejak keberatan diterima.")
    draft = synthesise("izin reklame gw ditolak, ngajuin keberatan paling lama brp hari & dinasnya wajib mutusin kapan?",
                       [appeal])
    assert draft.claims[0].text.startswith("Paling lama 14 hari kerja")


def test_a_second_ask_whose_question_word_closes_it_is_not_the_focus():
    # "… & dinasnya wajib mutusin kapan?": the first ask is how long, so the focus is a duration, not a date.
    question = read_question("izin reklame gw ditolak, masa banding nya brp lama & dinasnya wajib mutusin kapan?")
    assert (question.asks, question.focus.kind) == ("duration", "figure")


def test_a_signatory_printed_after_the_office_without_a_comma_is_named():
    block = passage("Ditetapkan di Banda Aceh pada tanggal, 3 Maret 2025 GUBERNUR ACEH AMIRUDDIN YUSUF.", kind="closing",
                    origin="closing", reference=None)
    draft = synthesise("Siapa yang menandatangani keputusan ini?", [block])
    assert draft.claims[0].text == "Ditetapkan di Banda Aceh pada tanggal 3 Maret 2025 oleh Gubernur Aceh Amiruddin Yusuf."


def test_a_figure_stated_in_a_list_item_opens_the_answer():
    shares = passage("(1) Dana bagi hasil zakat dibagi dengan rincian sebagai berikut:\na. bagian gampong sebesar 30% "
                     "(tiga puluh persen);\nb. bagian kecamatan sebesar 10% (sepuluh persen).")
    draft = synthesise("Berapa persen bagian gampong dari dana bagi hasil zakat?", [shares])
    assert draft.claims[0].text == "Bagian gampong sebesar 30%."


def test_a_prohibition_beside_the_best_unit_answers_no_and_a_permission_beside_it_answers_nothing():
    decree = passage("KESATU : Menetapkan Upah Minimum Provinsi (UMP) Aceh Tahun 2026 sebesar Rp3.932.552,00.\n"
                     "KETIGA : Pengusaha dilarang membayar upah lebih rendah dari UMP Aceh Tahun 2026.",
                     title="Keputusan Gubernur Aceh Nomor 500.15.14.1/1488/2025 tentang UMP Aceh Tahun 2026")
    draft = synthesise("Boleh gak perusahaan di Aceh bayar upah di bawah UMP 2026 sebesar Rp3.932.552,00?", [decree])
    assert draft.claims[0].text == "Tidak. Pengusaha dilarang membayar upah lebih rendah dari UMP Aceh Tahun 2026."
    # (The best unit covers marriages between Muslims, not the mixed marriage asked about: it says no yes either.)
    court = passage("Pengadilan agama memeriksa perkara perkawinan antara orang-orang yang beragama Islam.\n"
                    "Untuk dapat diangkat menjadi sekretaris pengadilan agama, calon harus memenuhi syarat.")
    opened = synthesise("Apakah pengadilan agama berwenang mengadili perkara perkawinan campuran beda agama?", [court])
    assert not opened.claims or not opened.claims[0].text.startswith(("Ya.", "Tidak."))


def test_still_in_force_is_answered_no_by_the_revoking_list_item_that_names_it():
    clause = passage("Pasal 88\nPada saat Qanun ini mulai berlaku:\na. Qanun Aceh Nomor 5 Tahun 2010 tentang Retribusi "
                     "Pelayanan Pasar (Lembaran Aceh Tahun 2010 Nomor 5, Tambahan Lembaran Aceh Nomor 31);\nb. Qanun Aceh "
                     "Nomor 7 Tahun 2012 tentang Pengelolaan Pasar Gampong (Lembaran Aceh Tahun 2012 Nomor 7, Tambahan "
                     "Lembaran Aceh Nomor 44),\ndicabut dan dinyatakan tidak berlaku.", origin="legal_relation",
                     reference="Qanun Aceh Nomor 2 Tahun 2024 Pasal 88")
    draft = synthesise("Apakah Qanun Aceh Nomor 7 Tahun 2012 tentang Pengelolaan Pasar Gampong masih berlaku?", [clause])
    first = "Tidak. Qanun Aceh Nomor 7 Tahun 2012 tentang Pengelolaan Pasar Gampong dicabut dan dinyatakan tidak berlaku."
    assert not draft.no_answer and draft.claims[0].text == first
    gate = faithfulness_gate(draft, {clause.label: clause.text}, partial_answers=False)
    assert gate.kept[0].text == first and not gate.fallback_used


def test_an_ordinal_outside_the_stated_order_answers_no_and_inside_it_yes():
    leave = passage("Untuk kelahiran anak pertama sampai dengan kelahiran anak ketiga pada saat menjadi pegawai, berhak "
                    "atas cuti bersalin.")
    no = synthesise("Pegawai yang melahirkan anak ke-4 masih dapat cuti bersalin gak?", [leave])
    assert no.claims[0].text.startswith("Tidak. Untuk kelahiran anak pertama sampai dengan")
    yes = synthesise("Pegawai yang melahirkan anak kedua masih dapat cuti bersalin gak?", [leave])
    assert yes.claims[0].text.startswith("Ya. Untuk kelahiran anak pertama sampai dengan")


def test_a_figure_question_opens_with_the_kept_unit_that_states_the_figure():
    from dataclasses import replace

    from answering.extractive.candidates import candidates
    from answering.extractive.layout import compose

    council = passage("(1) DPRK mempunyai fungsi legislasi, anggaran, dan pengawasan.\n(2) Jumlah anggota DPRK paling banyak "
                      "125% (seratus dua puluh lima persen) dari jumlah yang ditetapkan undang-undang.")
    question = read_question("Berapa batas maksimal jumlah anggota DPRK?")
    units = candidates(question, [council], None)
    # The ranker prefers the unit without the figure: the next kept unit that states it opens.
    ranked = sorted((replace(c, score=5.0 if "fungsi" in c.text else 1.0) for c in units), key=lambda c: -c.score)
    claims = compose(question, [(c, {c.passage.document_id: c.passage.label}) for c in ranked], "id")
    assert claims[0].text == "Jumlah anggota DPRK paling banyak 125% dari jumlah yang ditetapkan undang-undang."


def test_a_number_pointing_at_another_ayat_is_not_the_figure_asked():
    from dataclasses import replace

    from answering.extractive.candidates import candidates
    from answering.extractive.layout import compose

    penal = passage("(1) Qanun dapat memuat ancaman pidana.\n(2) Ancaman pidana sebagaimana dimaksud pada ayat (1) berupa "
                    "pidana kurungan paling lama 3 (tiga) bulan.\n(3) Qanun dapat memuat ancaman pidana selain "
                    "sebagaimana dimaksud pada ayat (2).")
    question = read_question("Seberapa berat ancaman pidana dalam qanun?")
    units = candidates(question, [penal], None)
    # The ranker prefers ayat (3), whose only number is the ayat it cites: the ayat stating the term opens.
    ranked = sorted((replace(c, score=5.0 if "selain" in c.text else 1.0) for c in units), key=lambda c: -c.score)
    claims = compose(question, [(c, {c.passage.document_id: c.passage.label}) for c in ranked], "id")
    assert "paling lama 3 bulan" in claims[0].text


def test_still_in_force_is_never_answered_by_the_instrument_s_other_articles():
    article = passage("Penghitungan dasar pengenaan pajak layanan informasi dilakukan terhadap jenis layanan yang "
                      "diselenggarakan sebagaimana dimaksud dalam Pasal 4.")
    draft = synthesise("Apakah Peraturan Contoh Nomor 7 Tahun 2024 tentang Layanan Informasi sudah dicabut?", [article])
    assert draft.no_answer and "focus status" in draft.unmet


def test_a_decree_s_registration_year_never_dates_the_decree_a_question_names():
    # "Kepgub UMP 2025": the 2026 wage decree is registered …/2025, which does not make it the 2025 decree.
    declined = synthesise("Berapa UMP Aceh menurut Kepgub UMP 2025?", [WAGE])
    assert declined.no_answer and "year 2025" in declined.unmet


def test_a_requirement_that_rules_out_what_is_asked_answers_no():
    rules = passage("(1) Calon anggota Majelis Adat harus memenuhi persyaratan sebagai berikut:\na. beragama Islam;\n"
                    "b. berusia paling rendah 30 (tiga puluh) tahun;\nc. tidak sedang menjadi pengurus partai politik "
                    "pada saat pendaftaran; dan\nd. sehat jasmani dan rohani.")
    draft = synthesise("Pengurus partai politik boleh gak mendaftar jadi anggota Majelis Adat?", [rules])
    assert draft.claims[0].text == ("Tidak. Calon anggota Majelis Adat harus memenuhi persyaratan sebagai berikut: tidak "
                                    "sedang menjadi pengurus partai politik pada saat pendaftaran.")
    gate = faithfulness_gate(draft, {rules.label: rules.text}, partial_answers=False)
    assert not gate.fallback_used and gate.kept[0].text == draft.claims[0].text


def test_a_list_asked_for_second_is_quoted_whole():
    # "… diakui gak? … apa aja sih": the first ask is a yes/no, the second asks for the list, so the list is quoted
    # to the bound a list question's lists are quoted to (units.ASKED_LIST_ITEMS), not the default ten items.
    items = "\n".join(f"{chr(97 + n)}. lembaga adat nomor {n + 1} atau nama lain;" for n in range(13))
    source = passage(f"(3) Lembaga adat sebagaimana dimaksud pada ayat (1) meliputi:\n{items}")
    question = "tuha peut itu diakui sbg lembaga adat gak? lembaga adat apa aja sih?"
    assert read_question(question).lists and not read_question("tuha peut itu diakui sbg lembaga adat gak?").lists
    draft = synthesise(question, [source])
    assert sum(1 for claim in draft.claims if claim.layout == "list_item") == 13
    assert not any("butir ditampilkan" in (claim.heading or "") for claim in draft.claims)


# A definition a little longer than an opener's usual length, ending in the words that complete it.
LONG_DEFINITION = passage(
    "Informasi Layanan adalah informasi yang dihasilkan, disimpan, dikelola, dikirim, dan/atau diterima oleh suatu "
    "badan layanan yang berkaitan dengan penyelenggara dan penyelenggaraan layanan dan/atau penyelenggara dan "
    "penyelenggaraan badan layanan lainnya yang sesuai dengan Peraturan ini serta informasi lain yang berkaitan "
    "dengan kepentingan masyarakat miskin.")


def test_a_definition_a_little_longer_than_an_opener_is_said_whole_and_checked():
    draft = synthesise("Apa yang dimaksud dengan informasi layanan?", [LONG_DEFINITION])
    first = draft.claims[0].text
    # Cut at the opener's usual length it read "… serta informasi lain yang." and dropped "miskin" from a list.
    assert first.endswith("berkaitan dengan kepentingan masyarakat miskin.")
    gate = faithfulness_gate(draft, {LONG_DEFINITION.label: LONG_DEFINITION.text}, partial_answers=False)
    assert gate.kept[0].text == first and not gate.fallback_used


def test_a_sentence_too_long_to_say_whole_is_cut_with_an_ellipsis_never_on_an_open_word():
    from answering.extractive.phrasing import short

    words = ("Dana layanan adalah dana yang dihimpun dari masyarakat dan dikelola oleh badan layanan untuk "
             "kepentingan umum yang sesuai dengan ketentuan peraturan perundang-undangan serta ") * 4
    said = short(words.strip() + " kebutuhan lain.")
    assert said.endswith(" …") and len(said) <= 330
    last = said[:-2].split()[-1].lower()
    assert last not in {"yang", "dan", "serta", "dengan", "untuk", "oleh", "dari"}


def test_a_nested_list_item_s_marker_is_not_part_of_the_sentence():
    from answering.extractive.phrasing import tidy

    assert tidy("1) wilayah Jawa paling sedikit 6.000 jiwa") == "Wilayah Jawa paling sedikit 6.000 jiwa."
    # An ayat's number and its first huruf together: neither is the sentence's first word ("A. Membentuk …").
    assert tidy("(1) a. membentuk kawasan bebas untuk jangka waktu 30 (tiga puluh) tahun") == (
        "Membentuk kawasan bebas untuk jangka waktu 30 tahun.")
    # A figure that opens a unit is no marker.
    assert tidy("3.987.940 untuk pekerja sektor perkebunan") == "3.987.940 untuk pekerja sektor perkebunan."


def test_a_definition_that_is_its_whole_unit_stands_under_its_article_heading_once():
    definition = passage("Dana Layanan adalah dana yang dihimpun dari masyarakat untuk kepentingan umum.",
                         reference="Peraturan Contoh Nomor 7 Tahun 2024 Pasal 1 angka 4")
    draft = synthesise("Apa yang dimaksud dengan dana layanan?", [definition])
    assert draft.claims[0].text == "Dana Layanan adalah dana yang dihimpun dari masyarakat untuk kepentingan umum."
    assert draft.claims[0].heading == "Peraturan Contoh Nomor 7 Tahun 2024 Pasal 1 angka 4"
    assert [c.text for c in draft.claims].count(draft.claims[0].text) == 1
    text = render_answer(draft.framing, draft.claims)
    assert text.startswith("**Peraturan Contoh Nomor 7 Tahun 2024 Pasal 1 angka 4**\nDana Layanan adalah dana")


def test_a_figure_opener_that_is_its_whole_unit_still_opens_the_answer():
    rate = passage("Tarif layanan ditetapkan paling tinggi sebesar 2%.")
    draft = synthesise("Berapa tarif layanan paling tinggi?", [rate])
    assert draft.claims[0].text == "Tarif layanan ditetapkan paling tinggi sebesar 2%." and draft.claims[0].heading is None
    assert render_answer(draft.framing, draft.claims).startswith("Tarif layanan ditetapkan paling tinggi sebesar 2%")
