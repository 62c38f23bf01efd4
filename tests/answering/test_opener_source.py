"""What the first sentence says is quoted first, whole: the passage it comes from leads the quotes
(layout.py ``source_first``), and a later ayat of that passage that refers back to it ("sebagaimana dimaksud dalam
ayat (1), … batal demi hukum") follows it (``elaborating``); a second yes/no ask's bare verdict never opens an
answer whose first ask is a yes/no too."""
from __future__ import annotations

from answering.extractive.candidates import candidates
from answering.extractive.layout import compose
from answering.extractive.question import read_question
from answering.extractive.synthesis import synthesise
from tests.answering.test_deciding_unit import CONDITIONS, PRESUMED, PROHIBITION, TALENT, TOGETHER, _article
from tests.answering.test_embedded_opener import passage

PROBATION = _article(58, "(1) Perjanjian kerja untuk waktu tertentu tidak dapat mensyaratkan adanya masa percobaan "
                         "kerja.\n(2) Dalam hal disyaratkan masa percobaan kerja dalam perjanjian kerja sebagaimana "
                         "dimaksud dalam ayat (1), masa percobaan kerja yang disyaratkan batal demi hukum.\n"
                         "(3) Ketentuan lebih lanjut mengenai perjanjian kerja diatur dengan Peraturan Menteri.")


def _headings(draft) -> list[str]:
    return [claim.heading for claim in draft.claims if claim.heading]


def test_the_clause_that_says_it_is_quoted_first():
    draft = synthesise("apakah anak di bawah umur boleh dipekerjakan?",
                       [CONDITIONS, TOGETHER, TALENT, PRESUMED, TALENT, PRESUMED, PROHIBITION])
    assert draft.claims[0].text == "Tidak. Pengusaha dilarang mempekerjakan anak."
    headings = _headings(draft)
    assert headings[0] == PROHIBITION.legal_reference
    assert len(headings) >= 2          # the conditions the ranker placed above it are still quoted, after it
    assert draft.claims[1].text == "Pengusaha dilarang mempekerjakan anak."


ANSWERING = _article(22, "(1) Pejabat wajib memberikan jawaban atas permohonan paling lambat 10 (sepuluh) hari kerja.\n"
                         "(2) Ketentuan lebih lanjut mengenai jawaban sebagaimana dimaksud pada ayat (1) diatur dengan "
                         "Peraturan Menteri.\n(3) Jangka waktu sebagaimana dimaksud pada ayat (1) dapat diperpanjang "
                         "paling lama 7 (tujuh) hari kerja.")


def _composed(question: str, kept: str, source_passage=PROBATION):
    """The answer composed from one kept unit (the one starting with ``kept``) of the passage's units."""
    read = read_question(question)
    ranked = candidates(read, [source_passage], None)
    source = next(c for c in ranked if c.text.startswith(kept))
    return compose(read, [(source, {source_passage.document_id: source_passage.label})], "id", None, ranked)


def test_the_ayat_that_refers_back_to_the_opener_follows_it():
    claims = _composed("bolehkah perjanjian kerja waktu tertentu mensyaratkan masa percobaan kerja?", "(1)")
    texts = [claim.text for claim in claims]
    assert texts[0].startswith("Tidak. Perjanjian kerja untuk waktu tertentu tidak dapat mensyaratkan")
    assert texts[1].startswith("(1) Perjanjian kerja") and claims[1].heading == PROBATION.legal_reference
    assert "batal demi hukum" in texts[2] and claims[2].citation_keys == (PROBATION.label,)
    assert len(texts) == 3             # (3) does not refer back to (1): it stays out


def test_a_delegation_never_completes_the_opener():
    claims = _composed("paling lama berapa hari pejabat wajib memberikan jawaban?", "(1)", ANSWERING)
    texts = [claim.text for claim in claims]
    assert any("diperpanjang" in text for text in texts)
    assert not any("Peraturan Menteri" in text for text in texts)


def test_an_ayat_referring_to_another_ayat_is_not_added():
    claims = _composed("apa yang diatur dengan Peraturan Menteri tentang perjanjian kerja?", "(3)")
    assert not any("batal demi hukum" in claim.text for claim in claims)


PROCEDURE = _article(76, "(1) Keberatan diajukan secara tertulis kepada pejabat yang menetapkan keputusan.")
DEADLINE = _article(77, "(1) Keberatan diajukan dalam waktu paling lama 21 (dua puluh satu) hari kerja sejak "
                        "diumumkannya keputusan.")


def test_a_second_asks_sentence_is_quoted_first_too():
    question = read_question("gimana cara ngajuin keberatan atas keputusan pejabat? ada batas waktunya gak?")
    ranked = candidates(question, [PROCEDURE, DEADLINE], None)
    chosen = [(c, {c.passage.document_id: c.passage.label}) for c in
              sorted(ranked, key=lambda c: c.passage is not PROCEDURE)]
    claims = compose(question, chosen, "id", None, ranked)
    assert claims[0].text.startswith("Ya.") and "21 hari kerja" in claims[0].text
    assert claims[1].heading == DEADLINE.legal_reference


SPECIAL_CARE = _article(29, "(1) Penyelenggara berkewajiban memberikan pelayanan dengan perlakuan khusus kepada anggota "
                            "masyarakat tertentu sesuai dengan peraturan perundang-undangan.\n(2) Sarana, prasarana, "
                            "dan/atau fasilitas pelayanan publik dengan perlakuan khusus sebagaimana dimaksud pada ayat (1) "
                            "dilarang digunakan oleh orang yang tidak berhak.")
NO_EXTRA_FEE = passage("Perlakuan khusus kepada masyarakat tertentu diberikan tanpa tambahan biaya.", kind="penjelasan",
                       reference="Penjelasan Undang-Undang Contoh Nomor 25 Tahun 2009 Pasal 29")


def _care_claims(text: str, first) -> list:
    question = read_question(text)
    ranked = candidates(question, [NO_EXTRA_FEE, SPECIAL_CARE], None)
    chosen = [(c, {c.passage.document_id: c.passage.label}) for c in
              sorted(ranked, key=lambda c: c.passage is not first)]
    return compose(question, chosen, "id", None, ranked)


def test_a_second_yes_no_asks_bare_verdict_never_answers_the_first():
    # "Tidak." for "harus bayar tambahan?" would read as "no special care": the answer quotes without a verdict.
    claims = _care_claims("ibu hamil sama lansia kalo ngurus layanan publik berhak dapet perlakuan khusus gak? trus "
                          "harus bayar tambahan?", SPECIAL_CARE)
    assert not claims[0].text.startswith(("Ya.", "Tidak.")), claims[0].text
    # After a first ask that no "Ya."/"Tidak." could answer, the second ask's verdict still opens.
    claims = _care_claims("gimana cara dapet perlakuan khusus buat lansia? harus bayar tambahan gak?", NO_EXTRA_FEE)
    assert claims[0].text.startswith("Tidak.") and "tanpa tambahan biaya" in claims[0].text
