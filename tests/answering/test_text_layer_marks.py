"""What a text layer left in a passage (carets before words, words broken at a line's end, an article's heading run
into its first line) is not quoted."""
from __future__ import annotations

from answering.extractive.candidates import closing_units
from answering.extractive.textlayer import without_text_layer_marks
from answering.extractive.units import passage_units


def test_carets_before_words_are_not_quoted():
    # UU 27/2022's text layer marks words with carets ("Pengendali ^Data Pribadi").
    text = ("(2) Data Pribadi yang bersifat umum sebagaimana dimaksud pada ayat (1) huruf b meliputi: nama lengkap, "
            "^jenis kelamin, dan agama.\n(3) Pelaksanaan hak diajukan kepada Pengendali ^Data ^Pribadi ^yang "
            "bersangkutan.")
    quoted = " ".join(u.text for u in passage_units(text))
    assert "^" not in quoted
    assert "nama lengkap, jenis kelamin, dan agama" in quoted
    assert "kepada Pengendali Data Pribadi yang bersangkutan" in quoted


def test_a_word_broken_at_a_line_end_is_quoted_whole():
    text = ("(1) Keputusan berlaku sepanjang tidak ditentukan lain dalam ketentuan peraturan perundang- undangan.\n"
            "(2) Partai politik lokal didirikan oleh sekurang- kurangnya 50 orang menurut Kitab Undang- Undang "
            "Hukum Pidana.")
    quoted = " ".join(u.text for u in passage_units(text))
    assert "peraturan perundang-undangan." in quoted
    assert "sekurang-kurangnya 50 orang" in quoted and "Kitab Undang-Undang Hukum Pidana" in quoted
    assert "- " not in quoted


def test_what_is_not_a_text_layer_mark_stays():
    assert without_text_layer_marks("luas 10^3 meter") == "luas 10^3 meter"          # a caret between numbers
    assert without_text_layer_marks("a. barang- b. jasa") == "a. barang- b. jasa"    # a hyphen before an item
    assert without_text_layer_marks("Pasal 5 - 7 dan nama_berkas") == "Pasal 5 - 7 dan nama_berkas"


def test_a_caret_before_punctuation_goes_with_its_spaces():
    assert without_text_layer_marks("Kabupaten/Kota terdiri atas ^: a. rapat") == "Kabupaten/Kota terdiri atas: a. rapat"


def test_a_signature_block_is_quoted_without_broken_words():
    block = ("Agar setiap orang mengetahuinya, memerintahkan pengundangan Undang- undang ini dengan penempatannya "
             "dalam Lembaran Negara. Disahkan di Jakarta pada tanggal 1 Agustus 2006 PRESIDEN REPUBLIK INDONESIA")
    units = closing_units(block)
    assert any("pengundangan Undang-undang ini" in unit for unit in units)
    assert any(unit.startswith("Disahkan di Jakarta") for unit in units)


def test_an_articles_heading_run_into_its_first_line_is_not_quoted_again():
    # The answer quotes a unit under its own "Pasal 14" heading: the heading a PDF's text ran into the first line
    # is not repeated inside the quote.
    assert [u.text for u in passage_units("Pasal 14 Pelaksanaan hak Subjek Data Pribadi diajukan melalui "
                                          "permohonan tercatat.")] == [
        "Pelaksanaan hak Subjek Data Pribadi diajukan melalui permohonan tercatat."]
    assert [u.text for u in passage_units("Pasal 46 (1) Yang dimaksud dengan kegagalan adalah X.\n"
                                          "(2) Dalam hal terjadi kegagalan, Pengendali wajib melapor.")] == [
        "(1) Yang dimaksud dengan kegagalan adalah X.", "(2) Dalam hal terjadi kegagalan, Pengendali wajib melapor."]
