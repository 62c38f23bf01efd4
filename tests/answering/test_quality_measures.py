"""The quality harness judges like a reader: the split is fixed, and the first sentence carries what was asked."""
from __future__ import annotations

from answering.evaluation.measures import asked_kinds, carries, first_sentence, first_sentence_verdicts
from retrieval.quality import article_label, split_of


def test_the_split_depends_on_the_id_alone_and_keeps_about_sixty_percent_for_training():
    ids = [f"q{n:03d}" for n in range(400)]
    parts = [split_of(i) for i in ids]
    assert parts == [split_of(i) for i in ids]
    assert 0.5 < parts.count("train") / len(parts) < 0.7


def test_gold_articles_are_read_as_the_index_names_them():
    assert (article_label("Pasal 22 ayat (1)"), article_label("Diktum KESATU"), article_label("Lampiran")) == \
        ("22", "KESATU", None)


def test_a_leading_yes_or_no_stays_with_its_clause_and_labels_are_not_read():
    answer = "Tidak. Pengusaha dilarang membayar upah di bawah UMP [chunk:00000000-0000-0000-0000-000000000000].\n\n**Pasal 6**"
    assert first_sentence(answer) == "Tidak. Pengusaha dilarang membayar upah di bawah UMP."


def test_the_first_sentence_must_carry_the_figure_in_any_notation_and_the_polarity():
    gold = "Paling banyak Rp50 juta untuk setiap pelanggaran."
    asked = asked_kinds("national", ["figure"])
    assert first_sentence_verdicts("Berapa dendanya?", gold, "Denda paling banyak Rp50.000.000,00.", asked) == {"figure": True}
    assert first_sentence_verdicts("Berapa dendanya?", gold, "Denda diatur dalam Pasal 7. Rp50 juta.", asked) == {"figure": False}
    polar = asked_kinds("yes-no", [])
    assert first_sentence_verdicts("Boleh?", "Tidak, dilarang.", "Ya. Boleh.", polar) == {"yesno": False}


def test_evidence_is_carried_by_its_content_words_not_the_exact_string():
    assert carries("PPID wajib menjawab paling lambat 10 hari kerja", "Paling lambat 10 hari kerja PPID wajib menjawabnya.")
    assert not carries("PPID wajib menjawab paling lambat 10 hari kerja", "Badan Publik mengumumkan laporan tahunan.")


def test_a_date_is_the_same_in_any_spelling_and_language():
    asked = asked_kinds("national", ["when"])
    gold = "Disahkan 12 November 1960 oleh Presiden."
    assert first_sentence_verdicts("Kapan disahkan?", gold, "Disahkan di Jakarta pada tanggal 12 Nopember 1960.",
                                   asked) == {"date": True}
    assert first_sentence_verdicts("When was it enacted?", "On 3 August 2010.", "Disahkan pada tanggal 3 Agustus 2010.",
                                   asked) == {"date": True}
    assert first_sentence_verdicts("Kapan disahkan?", gold, "Disahkan pada tanggal 12 Desember 1960.", asked) == \
        {"date": False}


def test_the_golds_source_citation_is_not_a_figure_and_the_instruments_number_is_not_one_asked():
    asked = asked_kinds("national", ["figure"])
    gold = "Paling tinggi 40 tahun (Pasal 9 ayat (2) huruf c)."
    # A heading that repeats the article number does not state the age.
    assert first_sentence_verdicts("Berapa batas usia menurut Peraturan Nomor 9 Tahun 2020?", gold,
                                   "Peraturan Nomor 9 Tahun 2020 Pasal 9 (2) Calon harus memenuhi syarat.", asked) == \
        {"figure": False}
    # "Undang-Undang Nomor 40 Tahun 2001": the law's number is not the figure asked, so the answer's 40 counts.
    assert first_sentence_verdicts("Menurut Undang-Undang Nomor 40 Tahun 2001, berapa batas usia?", gold,
                                   "Batas usia paling tinggi 40 tahun.", asked) == {"figure": True}
