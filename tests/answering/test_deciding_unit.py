"""A yes/no question is answered by the clause that decides it, wherever the ranker placed it in the answer's
regulation: a short prohibition several passages down ("Pengusaha dilarang mempekerjakan anak.") says "Tidak."
when the units ranked above it only set conditions (synthesis.py ``_keep_deciding``)."""
from __future__ import annotations

from answering.extractive.synthesis import synthesise
from tests.answering.test_embedded_opener import passage

LAW = "Undang-Undang Contoh Nomor 13 Tahun 2003 tentang Ketenagakerjaan"


def _article(number: int, text: str):
    return passage(text, title=LAW, reference=f"Undang-Undang Contoh Nomor 13 Tahun 2003 Pasal {number}")


CONDITIONS = _article(71, "(2) Pengusaha yang mempekerjakan anak di bawah umur sebagaimana dimaksud dalam ayat (1) "
                          "wajib memenuhi syarat:\na. di bawah pengawasan langsung dari orang tua atau wali;\n"
                          "b. waktu kerja paling lama 3 (tiga) jam sehari; dan\nc. kondisi dan lingkungan kerja tidak "
                          "mengganggu perkembangan fisik, mental, sosial, dan waktu sekolah anak di bawah umur.")
TOGETHER = _article(72, "Dalam hal anak di bawah umur dipekerjakan bersama-sama dengan pekerja/buruh dewasa, maka tempat "
                        "kerja anak harus dipisahkan dari tempat kerja pekerja/buruh dewasa.")
TALENT = _article(70, "(1) Anak dapat melakukan pekerjaan di tempat kerja yang merupakan bagian dari kurikulum "
                      "pendidikan atau pelatihan yang disahkan oleh pejabat yang berwenang.")
PRESUMED = _article(73, "Anak dianggap bekerja bilamana berada di tempat kerja, kecuali dapat dibuktikan sebaliknya.")
PROHIBITION = _article(68, "Pengusaha dilarang mempekerjakan anak.")


def test_a_prohibition_ranked_far_below_the_conditions_answers_no():
    draft = synthesise("apakah anak di bawah umur boleh dipekerjakan?",
                       [CONDITIONS, TOGETHER, TALENT, PRESUMED, TALENT, PRESUMED, PROHIBITION])
    opening = draft.claims[0]
    assert opening.text == "Tidak. Pengusaha dilarang mempekerjakan anak."
    assert opening.citation_keys == (PROHIBITION.label,)


def test_a_prohibition_in_another_regulation_does_not_answer():
    elsewhere = passage("Pengusaha dilarang mempekerjakan anak.", title="Peraturan Contoh Lain tentang Perkebunan",
                        reference="Peraturan Contoh Lain Nomor 2 Tahun 2020 Pasal 4")
    draft = synthesise("apakah anak di bawah umur boleh dipekerjakan?",
                       [CONDITIONS, TOGETHER, TALENT, PRESUMED, TALENT, PRESUMED, elsewhere])
    assert not draft.claims[0].text.startswith("Tidak.")

