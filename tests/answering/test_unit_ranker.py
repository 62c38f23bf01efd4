"""The fitted unit ranker, the range yes/no opener, status questions met by a revoking clause, English names."""
from __future__ import annotations

import random
import uuid

import pytest

from answering.evaluation.unit_fitting import UnitExample, fit, ranking_scores, states
from answering.extractive.answerability import assess
from answering.extractive.ranker import FEATURES, RankerParams, frozen_ranker, log_odds
from answering.extractive.synthesis import synthesise
from answering.types import Claim, Passage
from retrieval.facade.language import find_named_regulation


def passage(text: str, title: str, reference: str | None = None) -> Passage:
    return Passage(uuid.uuid4(), uuid.uuid4(), title, reference, ("Pasal 5",), "body", text, 1.0, {})


def test_a_unit_states_the_evidence_when_it_holds_most_of_it_or_is_a_fair_part_of_it():
    evidence = "Penerima bantuan berusia 7 sampai dengan 21 tahun dan berdomisili di Aceh"
    assert states(evidence, "c. berusia 7 (tujuh) sampai dengan 21 (dua puluh satu) tahun; penerima bantuan di Aceh")
    assert not states(evidence, "Pemerintah Aceh memberikan bantuan biaya pendidikan kepada anak yatim")


def marked_examples(seed: int, groups: int, units: int, mark) -> list[UnitExample]:
    """Random signals per unit, one answering unit per question whose signals ``mark(answers, rng)`` sets."""
    rng = random.Random(seed)
    examples = []
    for group in range(groups):
        answer = rng.randrange(units)
        for unit in range(units):
            features = {name: rng.random() for name in FEATURES} | mark(unit == answer, rng)
            examples.append(UnitExample(f"q{group}", features, int(unit == answer), False))
    return examples


def test_the_conditional_logit_learns_which_signal_marks_the_answering_unit():
    examples = marked_examples(7, 40, 6, lambda answers, rng: {"semantic": 0.9 if answers else 0.8 + rng.random() * 0.05})
    params = fit(examples)
    assert params["weights"]["semantic"] > max(abs(w) for n, w in params["weights"].items() if n != "semantic")
    assert ranking_scores(params, examples)["p_at_1"] == 1.0


def test_the_frozen_ranker_prefers_meaning_words_and_focus_and_holds_unmeasured_cosines_at_their_means():
    params = frozen_ranker()
    base = {name: params.means[name] for name in FEATURES}
    for signal in ("semantic", "overlap", "focus"):
        assert log_odds({**base, signal: params.means[signal] + params.scales[signal]}, params) > log_odds(base, params)
    assert log_odds({**base, "semantic": None}, params) == pytest.approx(log_odds(base, params))
    assert isinstance(params, RankerParams)


TITLE = "Peraturan Contoh Nomor 3 Tahun 2025 tentang Bantuan Biaya Pendidikan Anak Yatim"
RANGE = passage("(4) Penerima Bantuan Biaya Pendidikan harus memenuhi syarat berusia 7 (tujuh) sampai dengan 21 "
                "(dua puluh satu) tahun.", TITLE, "Peraturan Contoh Nomor 3 Tahun 2025 Pasal 5")


@pytest.mark.parametrize("question,first", [
    ("Apakah anak yatim berusia 22 tahun masih bisa menerima bantuan biaya pendidikan?", "Tidak."),
    ("Apakah anak yatim berusia 15 tahun bisa menerima bantuan biaya pendidikan?", "Ya."),
])
def test_a_yes_no_question_naming_a_quantity_is_answered_by_the_range_the_regulation_states(question, first):
    draft = synthesise(question, [RANGE])
    assert not draft.no_answer
    opener = draft.claims[0]
    assert opener.text.startswith(first) and "7 sampai dengan 21 tahun" in opener.text
    assert opener.citation_keys == (RANGE.label,)


REVOKING = passage("Pada saat Undang-Undang ini mulai berlaku, Undang-Undang Nomor 32 Tahun 2004 tentang Pemerintahan "
                   "Daerah dicabut dan dinyatakan tidak berlaku.", "Undang-Undang Nomor 23 Tahun 2014 tentang "
                   "Pemerintahan Daerah", "Undang-Undang Nomor 23 Tahun 2014 Pasal 409")


def test_a_status_question_about_an_unindexed_law_is_met_by_the_clause_that_revokes_it():
    claims = (Claim(REVOKING.text, (REVOKING.label,)),)
    status = assess("Apakah UU Nomor 32 Tahun 2004 masih berlaku?", claims, [REVOKING])
    assert not any(u.startswith("instrument") for u in status.unmet)
    # Asked what it regulates, the revoking clause is not that law's text.
    about = assess("Apa isi UU Nomor 32 Tahun 2004 tentang kepala daerah?", claims, [REVOKING])
    assert any(u.startswith("instrument") for u in about.unmet)


@pytest.mark.parametrize("question,number,year,prefix", [
    ("Is Law No. 32 of 2004 on Regional Government still in force?", "32", 2004, "Undang-Undang"),
    ("Under Law 13/2003, how long is maternity leave?", "13", 2003, "Undang-Undang"),
    ("What does Government Regulation Number 53 of 2010 say about discipline?", "53", 2010, "Peraturan Pemerintah"),
    ("Aceh Governor Regulation No. 24 of 2025: who may apply?", "24", 2025, "Peraturan Gubernur Aceh"),
    ("What does Governor Instruction 9/2025 ask schools to do?", "9", 2025, "Instruksi Gubernur Aceh"),
    ("Presidential Instruction No. 1 of 2024 on what?", "1", 2024, "Instruksi Presiden"),
    ("UU Desa nomor 6 tahun 2014 pasal 26 isinya apa?", "6", 2014, "Undang-Undang"),    # a short name before the number
    ("Surat Edaran Nomor 3 Tahun 2021 berlaku untuk siapa?", "3", 2021, "Surat Edaran"),
])
def test_an_english_question_names_an_instrument_as_an_indonesian_one_does(question, number, year, prefix):
    named = find_named_regulation(question)
    assert named is not None and (named.number, named.year, named.type_prefixes[0]) == (number, year, prefix)


def test_a_lawyer_of_2004_is_not_a_law():
    assert find_named_regulation("Which lawyer 5 of 2004 cases were heard?") is None


def test_a_modal_about_another_quantity_gives_no_yes_or_no():
    six = passage("(2) Setiap warga negara yang berusia 6 (enam) tahun dapat mengikuti program wajib belajar.", TITLE,
                  "Peraturan Contoh Nomor 3 Tahun 2025 Pasal 34")
    draft = synthesise("Anak saya umur 5 tahun, sudah bisa ikut program wajib belajar belum?", [six])
    assert draft.claims and not draft.claims[0].text.startswith(("Ya.", "Tidak."))
    asked_six = synthesise("Apakah anak umur 6 tahun dapat mengikuti program wajib belajar?", [six])
    assert asked_six.claims[0].text.startswith("Ya.")


def test_inside_a_prohibitions_age_bound_is_a_no():
    night = passage("(1) Pekerja/buruh perempuan yang berumur kurang dari 18 (delapan belas) tahun dilarang dipekerjakan "
                    "antara pukul 23.00 sampai dengan pukul 07.00.", TITLE, "Peraturan Contoh Nomor 3 Tahun 2025 Pasal 76")
    draft = synthesise("Pekerja perempuan umur 17 tahun boleh kerja shift malam jam 23.00 sampai 07.00?", [night])
    assert draft.claims[0].text.startswith("Tidak.") and "kurang dari 18 tahun dilarang" in draft.claims[0].text
    older = synthesise("Pekerja perempuan umur 19 tahun boleh kerja shift malam jam 23.00 sampai 07.00?", [night])
    assert not older.claims[0].text.startswith(("Ya.", "Tidak."))     # the ban says nothing about 19


@pytest.mark.parametrize("text,penal", [
    ("Setiap Orang yang dengan sengaja membuka lahan dengan cara membakar dipidana dengan pidana penjara paling lama "
     "10 (sepuluh) tahun.", True),
    ("Pelanggaran terhadap ketentuan Pasal 5 diancam pidana kurungan paling lama 6 (enam) bulan.", True),
    # A candidate's requirement that names a sentence punishes no one.
    ("Calon Kepala Desa wajib memenuhi persyaratan: a. berusia paling rendah 25 (dua puluh lima) tahun; b. tidak "
     "pernah dijatuhi pidana penjara karena melakukan tindak pidana yang diancam dengan pidana penjara paling singkat "
     "5 (lima) tahun.", False),
])
def test_only_a_provision_that_punishes_is_penal_for_a_question_that_asks_no_sanction(text, penal):
    from answering.extractive.question import read_question
    from answering.extractive.ranker import unit_features

    question = read_question("Syarat calon kepala desa berusia paling rendah berapa tahun?")
    features = unit_features(question, text, passage(text, TITLE, "Peraturan Contoh Nomor 3 Tahun 2025 Pasal 9"), 0, 0,
                             "sentence", overlap=0.5, closing=False, semantic=None, passage_semantic=None)
    assert features["penal_unasked"] == (1.0 if penal else 0.0)
    asked = read_question("Apa sanksi pidana bagi yang membakar lahan?")
    assert unit_features(asked, text, passage(text, TITLE, None), 0, 0, "sentence", overlap=0.5, closing=False,
                         semantic=None, passage_semantic=None)["penal_unasked"] == 0.0


def test_fitting_one_new_signal_keeps_the_validated_weights():
    examples = marked_examples(3, 30, 5, lambda answers, rng: {"bound": 1.0 if answers else 0.0})
    frozen = {"weights": {name: 0.5 for name in FEATURES if name != "bound"},
              "means": {name: 0.5 for name in FEATURES}, "scales": {name: 0.3 for name in FEATURES},
              "fitted_on": {"questions": 7}}
    params = fit(examples, only=("bound",), frozen=frozen)
    assert params["weights"]["bound"] > 1.0
    assert all(params["weights"][name] == 0.5 for name in FEATURES if name != "bound")
    assert all(params["means"][name] == 0.5 for name in FEATURES if name != "bound")
    assert params["fitted_on"]["only"] == ["bound"] and params["fitted_on"]["others_from"] == {"questions": 7}
