"""Question shapes a fresh reader's set showed the embedded answerer misreading (bench/fresh): a denying or
exempting list, a negated permission, "yg disebut …" and "what does … mean" definitions, a term the defined name
shortens, "siapa yang berwenang menetapkan <a matter>", a wage asked as "digaji brp", a schedule's row chosen by
meaning, and an office named by the next ayat. Every question and passage here is written for this file."""
from __future__ import annotations

from answering.extractive.focus import defines, question_focus
from answering.extractive.opener import by_meaning
from answering.extractive.synthesis import synthesise
from answering.text import content_stems
from retrieval.facade.language import enacts_instrument
from retrieval.signature import asks_closing
from answering.extractive.question import read_question
from tests.answering.test_embedded_opener import WAGE, passage

ALLOWANCE = passage("Tunjangan kinerja tidak diberikan kepada pegawai dalam hal:\na. sedang menjalani cuti besar;\n"
                    "b. sedang menjalani hukuman disiplin berat; atau\nc. diberhentikan sementara.")
LEVY_EXEMPT = passage("(2) Objek retribusi pasar sebagaimana dimaksud pada ayat (1) dikecualikan bagi:\n"
                      "a. pedagang kaki lima binaan dinas;\nb. kios milik koperasi desa; dan\nc. pasar darurat bencana.")
BONUS = passage("Insentif tahunan tidak diberikan kepada tenaga kontrak yang masa kerjanya kurang dari satu tahun.")
PERMITS = passage("(1) Penetapan izin keramaian dilaksanakan oleh pemerintah sesuai dengan tingkat kegiatan.\n"
                  "(2) Penetapan sebagaimana dimaksud pada ayat (1) untuk tingkat provinsi dilakukan oleh gubernur, dan "
                  "untuk tingkat kabupaten/kota dilakukan oleh bupati/walikota.")


def test_a_denying_list_whose_item_is_the_asked_case_answers_no_with_that_item():
    draft = synthesise("Pegawai yang sedang menjalani cuti besar tetap dapat tunjangan kinerja gak?", [ALLOWANCE])
    assert draft.claims[0].text == ("Tidak. Tunjangan kinerja tidak diberikan kepada pegawai dalam hal: sedang "
                                    "menjalani cuti besar.")


def test_an_exempting_list_answers_no_for_its_item_and_nothing_for_a_case_it_does_not_name():
    draft = synthesise("Kios milik koperasi desa kena retribusi pasar nggak?", [LEVY_EXEMPT])
    assert draft.claims[0].text.startswith("Tidak. Objek retribusi pasar")
    assert "kios milik koperasi desa" in draft.claims[0].text
    other = synthesise("Toko swalayan kena retribusi pasar nggak?", [LEVY_EXEMPT])
    assert not other.claims or not other.claims[0].text.startswith("Tidak.")


def test_a_negated_permission_answers_no_not_yes():
    draft = synthesise("Apakah tenaga kontrak yang masa kerjanya kurang dari satu tahun diberikan insentif tahunan?",
                       [BONUS])
    assert draft.claims[0].text.startswith("Tidak. Insentif tahunan tidak diberikan")


def test_definition_questions_in_the_readers_shapes_ask_for_the_term():
    assert question_focus("yg disebut 'juru sita' menurut qanun itu siapa aja?").kind == "definition"
    english = question_focus("What does 'uqubat' mean under the Qanun?")
    assert english.kind == "definition" and english.term_stems == frozenset(content_stems("uqubat"))


def test_a_defined_name_shorter_than_the_term_defines_it_when_the_definition_says_the_rest():
    term = frozenset(content_stems("jenjang Ulya"))
    assert defines("Ulya adalah jenjang pendidikan dayah menengah atas.", term)
    # The rest of the term is not said: a definition of something else that shares a word.
    assert not defines("Ulya adalah tingkat pendidikan dayah menengah atas.", term)
    assert not defines("Dana adalah uang yang disisihkan.", frozenset(content_stems("dana abadi pendidikan")))


def test_who_decides_a_matter_is_not_who_enacted_the_regulation():
    assert not enacts_instrument("Siapa yang berwenang menetapkan izin keramaian tingkat provinsi?")
    assert not asks_closing("Siapa yang berwenang menetapkan izin keramaian tingkat provinsi?")
    assert question_focus("Siapa yang berwenang menetapkan izin keramaian tingkat provinsi?").kind == "who"
    assert enacts_instrument("Siapa yang menetapkan qanun ini?")
    assert asks_closing("Kapan UU 11/2006 disahkan dan oleh siapa?")


def test_the_next_ayat_that_names_the_office_completes_and_opens_a_who_answer():
    draft = synthesise("Siapa yang berwenang menetapkan izin keramaian untuk tingkat provinsi?", [PERMITS])
    assert not draft.no_answer
    assert "dilakukan oleh gubernur" in draft.claims[0].text
    assert any("(1) Penetapan izin keramaian" in claim.text for claim in draft.claims)


def test_a_wage_asked_as_digaji_asks_for_an_amount():
    focus = question_focus("tenaga honorer dinas digaji brp per bulan?")
    assert focus.kind == "figure" and focus.satisfied_by("honorarium sebesar Rp2.500.000,00 per bulan")
    assert not focus.satisfied_by("masa kontrak paling lama 3 bulan")


def test_a_schedules_row_is_chosen_by_meaning_and_kept_in_order_without_a_ranker():
    rows = ("a. jenjang SD sebesar Rp1.000.000,00;", "b. jenjang SMP sebesar Rp1.500.000,00;")
    assert by_meaning(rows, lambda texts: [0.2, 0.9]) == (rows[1], rows[0])
    assert by_meaning(rows, None) == rows
    assert by_meaning(rows, lambda texts: None) == rows


PROBATION = passage("(1) Perjanjian kerja magang dapat mensyaratkan masa percobaan paling lama 2 (dua) bulan.\n"
                    "(2) Dalam masa percobaan, pengusaha dilarang membayar upah di bawah upah minimum yang berlaku.\n"
                    "(3) Masa percobaan dicatat dalam perjanjian kerja magang.")


def test_the_unit_answering_a_second_ask_joins_the_answer_after_the_first_asks_opener():
    draft = synthesise("masa percobaan magang maksimal brp lama? trus pas percobaan boleh digaji di bawah upah "
                       "minimum gak?", [PROBATION])
    assert draft.claims[0].text.startswith("Paling lama 2 bulan")
    assert any("dilarang membayar upah di bawah upah minimum" in claim.text for claim in draft.claims)


VILLAGE = passage("Kepala desa wajib mengumumkan anggaran pendapatan dan belanja desa kepada masyarakat setiap tahun.")
GLOSSARY = {"village head": "kepala desa", "village": "desa", "budget": "anggaran", "publish": "mengumumkan"}


def _expansions(text: str) -> dict[str, str]:
    return {phrase: meaning for phrase, meaning in GLOSSARY.items() if phrase in text.lower()}


def test_an_english_yes_no_is_read_in_the_laws_words_the_glossary_gives():
    draft = synthesise("Must a village head publish the village budget every year?", [VILLAGE], expansions=_expansions)
    assert draft.claims[0].text.startswith("Yes. Kepala desa wajib mengumumkan anggaran")
    # Without the glossary the English words meet nothing in the Indonesian clause: no yes is put before it.
    plain = synthesise("Must a village head publish the village budget every year?", [VILLAGE])
    assert not plain.claims or not plain.claims[0].text.startswith("Yes.")


COUNCIL_CLOSING = passage("Ditetapkan di Banda Aceh\npada tanggal 5 Mei 2025 M\nDEWAN PERWAKILAN RAKYAT ACEH\nKETUA,\nBAHRUDDIN",
                          kind="closing", origin="closing", reference=None)


def test_who_signed_asked_as_tanda_tangan_is_answered_with_a_one_word_name():
    assert question_focus("keputusan dewan itu siapa yg tanda tangan?").kind == "signatory"
    draft = synthesise("keputusan dewan itu siapa yg tanda tangan?", [COUNCIL_CLOSING])
    assert draft.claims[0].text.startswith("Ditetapkan di Banda Aceh pada tanggal 5 Mei 2025")
    assert draft.claims[0].text.endswith("Bahruddin.")


REVOKING = passage("Pada saat Peraturan Pemerintah ini mulai berlaku, Peraturan Pemerintah Nomor 3 Tahun 2010 tentang "
                   "Izin Usaha Kecil dicabut dan dinyatakan tidak berlaku.",
                   title="Peraturan Pemerintah Nomor 9 Tahun 2020 tentang Izin Usaha",
                   reference="Peraturan Pemerintah Nomor 9 Tahun 2020 Pasal 40")


def test_a_clause_revoking_the_named_instrument_speaks_for_it_when_asked_if_it_revokes():
    draft = synthesise("Apakah PP itu juga mencabut Peraturan Pemerintah Nomor 3 Tahun 2010?", [REVOKING])
    assert not any(unmet.startswith("instrument") for unmet in draft.unmet)


def test_an_english_what_is_the_penalty_asks_for_a_figure_not_a_definition():
    focus = question_focus("Under the data protection law, what is the penalty for selling personal data?")
    assert focus.kind == "figure"


def test_a_second_ask_ending_in_berapa_lama_is_split_from_the_first():
    from answering.extractive.question import first_ask, second_ask

    text = "Apakah pemilik kios wajib memasang papan nama menurut peraturan itu, dan dalam jangka waktu berapa lama?"
    assert first_ask(text) == "Apakah pemilik kios wajib memasang papan nama menurut peraturan itu?"
    assert second_ask(text) == "dan dalam jangka waktu berapa lama?"


REPORT = passage("(1) Pengelola wajib melaporkan kebocoran segera secara lisan kepada dinas.\n(2) Laporan tertulis "
                 "disampaikan paling lambat 3 (tiga) hari kerja sejak laporan lisan diterima.")


def test_when_a_duty_falls_due_is_answered_with_its_deadline():
    draft = synthesise("Kapan pengelola wajib menyampaikan laporan tertulis kebocoran?", [REPORT])
    assert draft.claims[0].text.startswith("Paling lambat 3 hari kerja sejak laporan lisan diterima")


NOTIFY = passage("(1) Dalam hal terjadi kebocoran data, pengelola wajib menyampaikan pemberitahuan tertulis paling "
                 "lambat 2 x 24 jam kepada:\na. pemilik data; dan\nb. dinas.")


def test_a_deadline_leading_into_a_list_ends_at_the_deadline():
    draft = synthesise("How quickly must the manager notify after a data leak?", [NOTIFY])
    assert draft.claims[0].text == "Paling lambat 2 x 24 jam."


def test_seberapa_asks_how_much_not_yes_or_no():
    from answering.extractive.question import read_question

    read = read_question("Seberapa berat denda yang boleh dicantumkan dalam qanun?")
    assert read.asks != "yesno" and read.focus.kind == "figure"


AIMS = passage("Qanun ini bertujuan:\na. meningkatkan peran pemuda dalam pembangunan desa;\nb. meningkatkan kualitas "
               "hidup pemuda desa.", reference="Qanun Contoh Nomor 2 Tahun 2024 Pasal 4")
RIGHTS = passage("Hak Pemuda meliputi:\na. hak atas pendidikan kepemudaan;\nb. hak atas pelatihan kerja; dan\n"
                 "c. hak berorganisasi.", reference="Qanun Contoh Nomor 2 Tahun 2024 Pasal 6")


def test_a_list_question_is_answered_by_the_list_whose_lead_in_names_what_is_asked():
    assert question_focus("Hak-hak apa saja yang dijamin bagi pemuda dalam qanun ini?").kind == "list"
    draft = synthesise("Hak-hak apa saja yang dijamin bagi pemuda dalam qanun ini?", [AIMS, RIGHTS])
    quoted = [claim.text for claim in draft.claims]
    assert any(text.startswith("Hak Pemuda meliputi") for text in quoted)
    assert quoted.index(next(t for t in quoted if t.startswith("Hak Pemuda"))) < \
        min((quoted.index(t) for t in quoted if t.startswith("Qanun ini bertujuan")), default=len(quoted))


def test_a_schedules_row_named_by_an_acronym_is_chosen_whatever_the_model_says():
    rows = ("a. jenjang Sekolah Dasar sebesar Rp1.000.000,00;", "b. jenjang Sekolah Menengah Pertama sebesar "
            "Rp1.500.000,00;", "c. jenjang Sekolah Menengah Atas sebesar Rp2.000.000,00.")
    assert by_meaning(rows, lambda texts: [0.9, 0.8, 0.1], "anak SMA dapat berapa?")[0] == rows[2]
    assert by_meaning(rows, lambda texts: [0.1, 0.9, 0.2], "anak sekolah dapat berapa?")[0] == rows[1]


UNPAID = passage("Selama menjalankan cuti di luar tanggungan negara, pegawai yang bersangkutan tidak menerima tunjangan "
                 "kinerja.")


def test_not_receiving_answers_no_to_still_getting():
    draft = synthesise("Pegawai yang cuti di luar tanggungan negara masih dapat tunjangan kinerja nggak?", [UNPAID])
    assert draft.claims[0].text.startswith("Tidak. Selama menjalankan cuti di luar tanggungan negara")


CANDIDATE = passage("(1) Calon anggota dewan pengawas harus memenuhi persyaratan sebagai berikut:\na. warga negara Indonesia;\n"
                    "b. sehat jasmani dan rohani;\nc. berusia paling tinggi 60 (enam puluh) tahun pada saat mendaftar; dan\n"
                    "d. berpendidikan paling rendah sarjana.")
APPEAL = passage("(1) Banding administratif diajukan oleh pemohon izin kepada kepala dinas dalam jangka waktu paling lambat "
                 "14 (empat belas) hari kerja sejak penolakan diterima.\n(2) Kepala dinas memeriksa banding secara tertulis.")
SUMMONS = passage("(1) Pegawai yang diduga melanggar tata tertib dipanggil secara tertulis oleh atasan langsung.\n"
                  "(2) Pemanggilan kedua dilakukan paling lambat 5 (lima) hari kerja setelah pemanggilan pertama.")


def test_a_figure_asked_as_an_age_limit_opens_with_the_item_stating_it():
    draft = synthesise("Berapa batas usia paling tinggi calon anggota dewan pengawas?", [CANDIDATE])
    assert draft.claims[0].text.startswith("Berusia paling tinggi 60 tahun")


def test_a_procedure_question_whose_second_ask_is_whether_a_time_limit_exists_opens_with_yes_and_the_limit():
    draft = synthesise("izin sy ditolak dinas, gimana cara ngajuin banding administratif? ada batas waktunya gak?",
                       [APPEAL])
    assert draft.claims[0].text.startswith("Ya. Banding administratif diajukan")
    assert "paling lambat 14 hari kerja" in draft.claims[0].text


def test_a_procedure_question_whose_second_ask_is_how_many_days_opens_with_the_days():
    draft = synthesise("atasan mau manggil pegawai yg diduga langgar tata tertib, prosedur manggilnya gimana? brp hari jaraknya?",
                       [SUMMONS])
    assert "paling lambat 5 hari kerja" in draft.claims[0].text.lower()


DUTIES = passage("Kewajiban pengelola pasar meliputi:\n" + "\n".join(
    f"{letter}. kewajiban nomor {index} pengelola pasar;" for index, letter in enumerate("abcdefghijklmn", start=1)))


def test_a_list_asked_for_is_quoted_whole_past_the_usual_ten_items():
    draft = synthesise("Apa saja kewajiban pengelola pasar?", [DUTIES])
    items = [claim.text for claim in draft.claims if claim.layout == "list_item"]
    assert len(items) == 14 and items[-1].startswith("n. kewajiban nomor 14")
    assert not any("butir ditampilkan" in (claim.heading or "") for claim in draft.claims)



STALL_EXEMPT = passage("(2) Objek retribusi sebagaimana dimaksud pada ayat (1) dikecualikan bagi:\na. pedagang kaki lima binaan "
                       "dinas;\nb. kios milik koperasi desa; dan\nc. lapak di pasar darurat bencana.",
                       title="Peraturan Bupati Contoh Nomor 3 Tahun 2024 tentang Retribusi Pelayanan Pasar Kabupaten Contoh")


def test_an_exempting_list_answers_no_when_the_regulations_title_says_the_rest_of_the_question():
    draft = synthesise("lapak di pasar darurat bencana kabupaten contoh kena retribusi pelayanan pasar gak?",
                       [STALL_EXEMPT])
    assert draft.claims[0].text.startswith("Tidak. Objek retribusi")
    assert "lapak di pasar darurat bencana" in draft.claims[0].text


DISTRICT = passage("Wilayah Kabupaten Contoh terdiri atas Kecamatan Teluk Indah, Kecamatan Bukit Hijau, dan Kecamatan Pantai "
                   "Barat.", title="Peraturan Pemerintah Nomor 9 Tahun 1996 tentang Pembentukan Kabupaten Contoh")


def test_a_year_given_as_when_the_instrument_was_made_is_met_by_its_own_year():
    made = synthesise("Kecamatan apa saja yang menjadi wilayah Kabupaten Contoh ketika dibentuk pada tahun 1996?",
                      [DISTRICT])
    assert not made.no_answer and "Kecamatan Teluk Indah" in " ".join(c.text for c in made.claims)
    # A year the figure is for is what the instrument is about: the 2026 wage decree (filed in 2025) does not say
    # the 2025 wage.
    assert synthesise("Berapa UMP Aceh yang ditetapkan untuk tahun 2025?", [WAGE]).no_answer


def test_asking_what_an_amendment_changed_is_not_asking_whether_an_instrument_still_holds():
    assert read_question("Ketentuan apa yang diubah oleh Peraturan Gubernur Contoh Nomor 4 Tahun 2025?").asks != "status"
    assert read_question("Pasal mana yang diubah oleh qanun itu?").asks != "status"
    assert read_question("Apakah Peraturan Gubernur Contoh Nomor 4 Tahun 2020 sudah dicabut?").asks == "status"


SEVERANCE = passage("Pengusaha dapat melakukan pemutusan hubungan kerja terhadap pekerja karena perusahaan tutup yang "
                    "disebabkan perusahaan mengalami kerugian secara terus menerus selama 2 (dua) tahun.",
                    reference="Peraturan Contoh Nomor 7 Tahun 2024 Pasal 64")
TRIAL = passage("Perjanjian kerja untuk waktu tertentu tidak dapat mensyaratkan adanya masa percobaan kerja.",
                reference="Peraturan Contoh Nomor 7 Tahun 2024 Pasal 58")
LABOUR_GLOSSARY = {"employer": "pengusaha pemberi kerja", "fixed-term contract": "perjanjian kerja waktu tertentu",
                   "probation": "masa percobaan", "worker": "pekerja buruh"}


def test_an_english_question_ranks_units_by_the_share_of_the_laws_words_they_carry():
    # The unit carrying most of the words the glossary gives the question (perjanjian kerja waktu tertentu, masa
    # percobaan) leads, though its passage was retrieved second: an English question's own words meet nothing in
    # Indonesian text, so without them the ranker read rank alone and quoted the dismissal article first.
    question = "Can an employer put a worker on a fixed-term contract through a probation period?"
    draft = synthesise(question, [SEVERANCE, TRIAL],
                       expansions=lambda text: {k: v for k, v in LABOUR_GLOSSARY.items() if k in text.lower()})
    assert not draft.no_answer
    assert "masa percobaan" in draft.claims[0].text
    assert draft.claims[0].citation_keys == (TRIAL.label,)


def test_an_everyday_word_is_met_by_any_one_of_its_wordings():
    """The glossary's everyday rows give alternative wordings ("bos": "pengusaha | atasan"): the law's passage that
    writes one of them carries the word; an abbreviation's one phrase must be met whole."""
    rows = {"bos": "pengusaha | atasan", "gaji": "upah | penghasilan", "UMPX": "upah minimum pekerja"}
    glossary = lambda text: {phrase: wording for phrase, wording in rows.items() if phrase in text}   # noqa: E731
    ban = passage("Pengusaha dilarang membayar upah lebih rendah dari upah minimum provinsi.")
    draft = synthesise("bos boleh bayar gaji lebih rendah dari upah minimum gak?", [ban], expansions=glossary)
    assert not draft.no_answer and draft.claims[0].text.startswith("Tidak. Pengusaha dilarang")
    assert draft.term_coverage == 1.0
    # "upah minimum pekerja" is one wording: "pekerja" missing, "UMPX" is not met by "upah minimum" alone.
    partial = synthesise("bos bayar lebih rendah dari UMPX?", [ban], expansions=glossary)
    assert partial.term_coverage < 1.0
