"""The deterministic judge and the v1 gate."""
import pytest

from answering.faithfulness import faithfulness_gate, judge_claim, quantities, render_answer
from answering.types import AnswerDraft, Claim

PASSAGE = (
    "(1) Total belanja Aceh Tahun Anggaran 2024 sebesar Rp871.667.219.294. "
    "(2) PPID wajib menjawab permohonan paling lambat 14 (empat belas) hari kerja."
)
P = {"chunk:a": PASSAGE}


def claim(text: str) -> Claim:
    return Claim(text=text, citation_keys=("chunk:a",))


@pytest.mark.parametrize(
    "text",
    [
        "Total belanja Aceh Tahun Anggaran 2024 sebesar Rp871,67 miliar.",
        "Total belanja Aceh Tahun Anggaran 2024 sebesar 871.667.219.294 rupiah.",
        "PPID wajib menjawab permohonan paling lambat 14 hari kerja.",
    ],
)
def test_the_same_figure_written_differently_supports(text):
    assert judge_claim(claim(text), P).supported


@pytest.mark.parametrize(
    "text,reason",
    [
        ("Total belanja Aceh Tahun Anggaran 2024 sebesar Rp871,67 juta.", "number_mismatch"),
        ("Total belanja Aceh Tahun Anggaran 2023 sebesar Rp871,67 miliar.", "number_mismatch"),
        ("PPID wajib menjawab permohonan paling lambat 14 bulan kerja.", "number_mismatch"),
        ("PPID wajib menjawab permohonan paling lambat 7 hari kerja.", "number_mismatch"),
        ("Gubernur membentuk badan pengawas zakat independen di setiap kabupaten.", "no_support"),
    ],
)
def test_a_different_scale_unit_year_or_fact_does_not_support(text, reason):
    verdict = judge_claim(claim(text), P)
    assert not verdict.supported and verdict.reason == reason


def test_a_claim_citing_an_unshown_passage_is_unsupported():
    verdict = judge_claim(Claim("Total belanja Aceh.", ("chunk:zzz",)), P)
    assert (verdict.supported, verdict.reason) == (False, "no_citation")


def test_quantities_parse_indonesian_separators_and_scales():
    assert [q.value for q in quantities("Rp4.185.750,00 dan 2,5 persen")] == [4185750.0, 2.5]
    assert quantities("Rp1,2 triliun")[0].value == 1.2e12


def test_a_number_spelled_without_digits_is_a_quantity_when_its_unit_follows():
    spelled = quantities("Setiap warga negara yang berusia tujuh sampai dengan lima belas tahun wajib belajar.")
    assert [(q.value, q.unit) for q in spelled] == [(15.0, "year")]
    assert [(q.value, q.unit) for q in quantities("dalam waktu dua puluh lima hari")] == [(25.0, "day")]
    # Spelled inside its parenthesis, it is the digits' own reading: counted once.
    assert [q.value for q in quantities("paling lambat 14 (empat belas) hari kerja")] == [14.0]
    # No unit, no figure: "salah satu pihak", "kedua belah pihak".
    assert quantities("salah satu pihak dan kedua belah pihak") == []


def test_a_spelled_figure_is_checked_like_digits():
    passages = {"chunk:a": "Setiap warga negara yang berusia tujuh sampai dengan lima belas tahun wajib belajar."}
    assert judge_claim(Claim("Wajib belajar sampai usia 15 tahun.", ("chunk:a",)), passages).supported
    wrong = judge_claim(Claim("Wajib belajar sampai usia lima puluh tahun.", ("chunk:a",)), passages)
    assert (wrong.supported, wrong.reason) == (False, "number_mismatch")


def test_gate_drops_unsupported_claims_and_counts_them():
    good = claim("PPID wajib menjawab permohonan paling lambat 14 hari kerja.")
    also_good = claim("Total belanja Aceh Tahun Anggaran 2024 sebesar Rp871,67 miliar.")
    bad = claim("Total belanja Aceh Tahun Anggaran 2024 sebesar Rp900 miliar.")
    gate = faithfulness_gate(AnswerDraft("Menurut sumber:", (good, also_good, bad)), P, partial_answers=False)
    assert gate.dropped == 1 and gate.claims_supported == 2 and gate.claims_total == 3
    assert gate.grounding_rate == 0.6667
    assert "Rp900" not in gate.answer and "[chunk:a]" in gate.answer
    assert (gate.fallback_used, gate.fallback_reason) == (False, None)


def test_gate_withholds_when_most_claims_fail():
    bad = claim("Total belanja Aceh Tahun Anggaran 2024 sebesar Rp900 miliar.")
    good = claim("PPID wajib menjawab permohonan paling lambat 14 hari kerja.")
    worse = claim("Gubernur membentuk badan pengawas zakat di setiap kabupaten.")
    gate = faithfulness_gate(AnswerDraft("", (good, bad, worse)), P, partial_answers=False)
    assert (gate.fallback_used, gate.fallback_reason) == (True, "coverage_incomplete")
    # The rate still describes what the gate checked.
    assert (gate.claims_supported, gate.claims_total, gate.grounding_rate) == (1, 3, 0.3333)


def test_partial_answers_publish_the_verified_part_with_a_note():
    good = claim("PPID wajib menjawab permohonan paling lambat 14 hari kerja.")
    bad = claim("Total belanja Aceh Tahun Anggaran 2024 sebesar Rp900 miliar.")
    gate = faithfulness_gate(AnswerDraft("", (good, bad)), P, partial_answers=True)
    assert (gate.fallback_used, gate.fallback_reason) == (False, "partial_answer")
    assert "dihilangkan" in gate.answer


def test_memory_claims_are_in_neither_count():
    memory = Claim("Anda bekerja di Bappeda.", ("memory",), memory_id=7)
    good = claim("PPID wajib menjawab permohonan paling lambat 14 hari kerja.")
    gate = faithfulness_gate(AnswerDraft("", (memory, good)), P, partial_answers=False)
    assert (gate.claims_supported, gate.claims_total, len(gate.kept)) == (1, 1, 2)


def test_a_list_keeps_its_own_punctuation_after_the_labels():
    """A lead-in ends with its colon and an item with its semicolon (and conjunction): no full stop is added after
    them (";." and ":." read as typos); a plain sentence still gets one."""
    claims = (Claim("PNS diberhentikan dari JPT apabila :", ("a",)),
              Claim("a. mengundurkan diri dari Jabatan;", ("a",), layout="list_item"),
              Claim("b. diberhentikan sebagai PNS; dan", ("a",), layout="list_item"),
              Claim("c. terjadi penataan organisasi", ("a",), layout="list_item"))
    assert render_answer("", claims) == ("PNS diberhentikan dari JPT apabila [a]:\n"
                                         "- a. mengundurkan diri dari Jabatan [a];\n"
                                         "- b. diberhentikan sebagai PNS; dan [a]\n"
                                         "- c. terjadi penataan organisasi [a].")
