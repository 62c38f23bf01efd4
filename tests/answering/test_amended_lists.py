"""An amending regulation's lists: an item the amendment deleted ("a. dihapus;") is quoted but not said in the
opening sentence, and the amendment's next point ("3. Pasal 5 dihapus.") is not an item of the list before it."""
from __future__ import annotations

import uuid

from answering.extractive.synthesis import synthesise
from answering.extractive.units import passage_units
from answering.types import Passage

TITLE = "Peraturan Gubernur Contoh Nomor 16 Tahun 2025 tentang Perubahan atas Peraturan Gubernur Budaya Kerja"
AMENDED = ("2. Ketentuan Pasal 4 diubah sehingga berbunyi sebagai berikut:\nPasal 4\n"
           "Nilai-nilai dasar Budaya Kerja Aparatur terdiri atas:\na. dihapus;\nb. berorientasi pelayanan;\n"
           "c. akuntabel;\nd. kompeten; dan\ne. kolaboratif.\n3. Pasal 5 dihapus.")
NESTED = ("(3) Pembentukan Desa harus memenuhi syarat:\na. batas usia Desa induk paling sedikit 5 (lima) tahun;\n"
          "b. jumlah penduduk, yaitu:\n1) wilayah Jawa paling sedikit 6.000 (enam ribu) jiwa;\n"
          "2) wilayah Bali paling sedikit 5.000 (lima ribu) jiwa; dan\nc. wilayah kerja yang memiliki akses "
          "transportasi antarwilayah.")


def test_the_amendments_next_point_closes_the_list_before_it():
    lists = [u for u in passage_units(AMENDED, whole_lists=True) if u.kind == "list"]
    assert [item.split(".")[0] for item in lists[0].items] == ["a", "b", "c", "d", "e"]
    assert not any("Pasal 5" in item for unit in lists for item in unit.items)


def test_a_nested_list_stays_one_list():
    items = next(u for u in passage_units(NESTED, whole_lists=True) if u.kind == "list").items
    assert [item.split(" ")[0] for item in items] == ["a.", "b.", "1)", "2)", "c."]


def test_the_opening_sentence_lists_the_items_in_force():
    passage = Passage(uuid.uuid4(), uuid.uuid4(), TITLE, f"{TITLE} Pasal I (Pasal 4)", ("Pasal I", "Pasal 4"), "body",
                      AMENDED, 1.0, {}, origin="search")
    draft = synthesise("Apa saja nilai-nilai dasar budaya kerja aparatur?", [passage])
    opener = draft.claims[0].text
    assert opener.startswith("Nilai-nilai dasar Budaya Kerja Aparatur terdiri atas: berorientasi pelayanan")
    assert "dihapus" not in opener and opener.rstrip(".").endswith("dan kolaboratif")
    # The quoted list keeps the deleted item as the regulation prints it.
    assert any(c.text.startswith("a. dihapus") for c in draft.claims[1:])


def test_underscores_a_text_layer_left_outside_words_are_not_quoted():
    text = ("Pengadilan agama berwenang memeriksa perkara di bidang:\na. zakat;\nb. infaq _; _ c. shadaqah; dan\n"
            "d. ekonomi syari'ah berdasarkan Undang-Undang _Nomor 18 Tahun 2001_ tentang nama_berkas.")
    items = next(u for u in passage_units(text, whole_lists=True) if u.kind == "list").items
    assert [item.split(" ")[0] for item in items] == ["a.", "b.", "c.", "d."]     # "b. infaq; c. shadaqah" splits
    assert items[1] == "b. infaq;" and "_" not in " ".join(items[:3])
    assert "Undang-Undang Nomor 18 Tahun 2001 tentang nama_berkas." in items[3]  # one inside a word stays
