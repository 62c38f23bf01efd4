"""v2 annotation: a verdict per segment, the faithfulness block, and the judges behind them."""
import pytest

from answering.judging import DeterministicFramingChecker, DeterministicJudge, JudgeFailure, JudgeItem
from answering.v2.annotate import (
    Annotation,
    annotate,
    annotations_frame,
    claims_json,
    faithfulness_block,
    framing_json,
)
from answering.v2.rendering import render_segments
from answering.v2.segments import Rendered, Segment

QUESTION = "Berapa anggaran pendidikan Aceh tahun 2023?"
P1 = "[Qanun Aceh Nomor 1 Tahun 2023 tentang APBA, Pasal 5]\nAnggaran pendidikan 2023 adalah Rp 5 miliar."
SHOWN = {"P1": P1, "P2": "[Qanun Aceh Nomor 2 Tahun 2022]\nAnggaran kesehatan 2022 adalah Rp 3 miliar."}
SEED_SEGMENTS = (
    Segment("Berikut datanya.", "framing", (), "paragraph"),
    Segment("Anggaran pendidikan 2023 adalah Rp 5 miliar.", "fact", ("P1",), "continue"),
    Segment("Naik 9 persen dari 2022.", "fact", ("P1",), "continue"),
)


class ScriptedJudge:
    """Answers each judge_batch call from a script: a verdict map, or a JudgeFailure to raise."""

    mechanism = "scripted"

    def __init__(self, batches=(), rechecks=None, default="supported"):
        self.batches = list(batches)
        self.rechecks = rechecks or {}
        self.default = default
        self.batch_calls: list[list[JudgeItem]] = []
        self.recheck_calls: list[JudgeItem] = []

    def judge_batch(self, items):
        self.batch_calls.append(items)
        step = self.batches.pop(0) if self.batches else {}
        if isinstance(step, JudgeFailure):
            raise step
        return {item.index: step.get(item.index, self.default) for item in items if step.get(item.index, self.default) != "missing"}

    def recheck(self, item):
        self.recheck_calls.append(item)
        outcome = self.rechecks.get(item.index, "unsupported")
        if isinstance(outcome, JudgeFailure):
            raise outcome
        return outcome


class ScriptedFramingChecker:
    def __init__(self, checkable=(), failure=None):
        self.checkable = set(checkable)
        self.failure = failure
        self.calls: list[tuple[str, list]] = []

    def check(self, question, framing):
        self.calls.append((question, framing))
        if self.failure:
            raise JudgeFailure(self.failure)
        return self.checkable


def run(segments, judge=None, checker=None, **options):
    return annotate(segments, shown=SHOWN, question=QUESTION, judge=judge or ScriptedJudge(),
                    framing_checker=checker or ScriptedFramingChecker(), **options)


def verdicts(annotation):
    return {claim.index: (claim.verdict, claim.unverified_reason) for claim in annotation.claims}


def facts(count, cites=("P1",)):
    return tuple(Segment(f"Fakta nomor {n}.", "fact", cites, "paragraph") for n in range(count))


def block_for(annotation, segments, **options):
    rendered = render_segments(segments)
    return faithfulness_block(annotation, rendered, rendered.answer, **options)


# --- the seed's example ----------------------------------------------------------------------


def test_the_seed_example_body_is_recomputed_from_its_segments():
    judge = ScriptedJudge(batches=[{1: "supported", 2: "unsupported"}], rechecks={2: "unsupported"})
    annotation = run(SEED_SEGMENTS, judge)
    rendered = render_segments(SEED_SEGMENTS)
    citation_for_key = {"P1": {"chunk_id": "c1"}}.get

    assert rendered.answer == "Berikut datanya. Anggaran pendidikan 2023 adalah Rp 5 miliar. Naik 9 persen dari 2022."
    assert claims_json(annotation, rendered.spans, citation_for_key) == [
        {"text": "Anggaran pendidikan 2023 adalah Rp 5 miliar.", "citation_keys": ["P1"],
         "citations": [{"citation_key": "P1", "citation": {"chunk_id": "c1"}}],
         "verdict": "supported", "unverified_reason": None, "invalid_citation_keys": [],
         "kind": "fact", "layout": "continue", "start": 17, "end": 61, "start_utf16": 17, "end_utf16": 61},
        {"text": "Naik 9 persen dari 2022.", "citation_keys": ["P1"],
         "citations": [{"citation_key": "P1", "citation": {"chunk_id": "c1"}}],
         "verdict": "unsupported", "unverified_reason": None, "invalid_citation_keys": [],
         "kind": "fact", "layout": "continue", "start": 62, "end": 86, "start_utf16": 62, "end_utf16": 86},
    ]
    assert framing_json(annotation, rendered.spans) == [
        {"text": "Berikut datanya.", "layout": "paragraph", "start": 0, "end": 16, "start_utf16": 0, "end_utf16": 16}]
    assert faithfulness_block(annotation, rendered, rendered.answer) == {
        "mechanism": "annotate-v2", "judge_status": "complete", "framing_check": "complete", "claims_total": 2,
        "supported": 1, "unsupported": 1, "unverified": 0, "uncited": 0, "invalid_citation": 0, "from_conversation": 0,
        "unverified_reasons": {"deadline": 0, "budget": 0, "judge_unavailable": 0, "unparseable": 0, "disputed": 0},
        "framing_total": 1, "unlocated_total": 0, "verification": "partial",
        "grounding": {"claims_supported": 1, "claims_total": 2, "grounding_rate": 0.5},
    }


def test_the_seed_example_with_the_deterministic_judges():
    """The embedded defaults reach the seed's verdicts: P1 states 2023's figure, not the rise."""
    annotation = run(SEED_SEGMENTS, DeterministicJudge(), DeterministicFramingChecker())
    assert verdicts(annotation) == {1: ("supported", None), 2: ("unsupported", None)}
    assert annotation.framing == (0,)


def test_the_annotations_frame_carries_counts_and_marks_without_text():
    judge = ScriptedJudge(batches=[{1: "supported", 2: "unsupported"}])
    annotation = run(SEED_SEGMENTS, judge)
    rendered = render_segments(SEED_SEGMENTS)
    frame = annotations_frame(annotation, rendered, rendered.answer, fallback_used=False, fallback_reason=None)
    assert frame["verification"] == "partial" and frame["supported"] == 1 and frame["framing_total"] == 1
    assert frame["grounding"] == {"claims_supported": 1, "claims_total": 2, "grounding_rate": 0.5}
    assert (frame["fallback_used"], frame["fallback_reason"]) == (False, None)
    assert frame["claims"][0] == {"citation_keys": ["P1"], "verdict": "supported", "unverified_reason": None,
                                  "invalid_citation_keys": [], "kind": "fact", "layout": "continue",
                                  "start": 17, "end": 61, "start_utf16": 17, "end_utf16": 61}
    assert frame["framing"] == [{"layout": "paragraph", "start": 0, "end": 16, "start_utf16": 0, "end_utf16": 16}]
    assert "checked" not in frame


# --- verdicts --------------------------------------------------------------------------------


def test_a_fact_citing_nothing_is_uncited_and_never_judged():
    judge = ScriptedJudge()
    annotation = run((Segment("Anggaran Rp 5 miliar.", "fact"),), judge)
    assert verdicts(annotation) == {0: ("uncited", None)}
    assert judge.batch_calls == [] and annotation.judge_status == "skipped"


@pytest.mark.parametrize("cites", [("memory",), ("conversation",), ("memory", "conversation")])
def test_a_segment_citing_only_the_conversation_is_from_conversation(cites):
    judge = ScriptedJudge()
    annotation = run((Segment("Anda bertanya tentang 2023.", "fact", cites),), judge)
    assert verdicts(annotation) == {0: ("from_conversation", None)}
    assert judge.batch_calls == [] and annotation.judge_status == "skipped"


def test_conversation_keys_are_configurable():
    annotation = run((Segment("Seperti kata Anda.", "fact", ("history",)),), conversation_keys=frozenset({"history"}))
    assert verdicts(annotation) == {0: ("from_conversation", None)}


def test_a_segment_citing_only_unshown_passages_is_invalid_citation():
    annotation = run((Segment("Anggaran Rp 5 miliar.", "fact", ("P9", "memory")),))
    [claim] = annotation.claims
    assert (claim.verdict, claim.invalid_citation_keys, claim.valid_keys) == ("invalid_citation", ("P9",), ())
    assert annotation.judge_status == "skipped"


def test_a_mix_of_valid_and_invalid_cites_is_judged_against_the_valid_ones_only():
    judge = ScriptedJudge(batches=[{0: "supported"}])
    annotation = run((Segment("Anggaran Rp 5 miliar.", "fact", ("P9", "P1")),), judge)
    [claim] = annotation.claims
    assert (claim.verdict, claim.invalid_citation_keys, claim.valid_keys) == ("supported", ("P9",), ("P1",))
    assert judge.batch_calls[0][0].passages == {"P1": P1}
    rendered = render_segments(annotation.segments)
    [body] = claims_json(annotation, rendered.spans, {"P1": {"chunk_id": "c1"}, "P9": {"chunk_id": "c9"}}.get)
    assert body["citation_keys"] == ["P9", "P1"] and body["invalid_citation_keys"] == ["P9"]
    assert body["citations"] == [{"citation_key": "P1", "citation": {"chunk_id": "c1"}}]


def test_a_citation_with_no_serialised_source_is_left_out_of_citations():
    annotation = run(facts(1))
    [body] = claims_json(annotation, render_segments(annotation.segments).spans, lambda key: None)
    assert body["citations"] == [] and body["citation_keys"] == ["P1"]


def test_an_unsupported_verdict_confirmed_alone_is_unsupported():
    judge = ScriptedJudge(batches=[{0: "unsupported", 1: "supported"}], rechecks={0: "unsupported"})
    annotation = run(facts(2), judge)
    assert verdicts(annotation) == {0: ("unsupported", None), 1: ("supported", None)}
    assert [item.index for item in judge.recheck_calls] == [0]
    assert annotation.judge_status == "complete"


def test_an_unsupported_verdict_the_recheck_does_not_confirm_is_disputed():
    judge = ScriptedJudge(batches=[{0: "unsupported"}], rechecks={0: "supported"})
    annotation = run(facts(1), judge)
    assert verdicts(annotation) == {0: ("unverified", "disputed")}
    assert annotation.judge_status == "unavailable"


@pytest.mark.parametrize("batch_verdict", [None, "missing", "perhaps"])
def test_no_usable_verdict_is_unparseable(batch_verdict):
    annotation = run(facts(2), ScriptedJudge(batches=[{0: batch_verdict}]))
    assert verdicts(annotation) == {0: ("unverified", "unparseable"), 1: ("supported", None)}


def test_a_recheck_with_no_usable_verdict_is_unparseable():
    annotation = run(facts(1), ScriptedJudge(batches=[{0: "unsupported"}], rechecks={0: None}))
    assert verdicts(annotation) == {0: ("unverified", "unparseable")}


@pytest.mark.parametrize("reason", ["deadline", "budget", "judge_unavailable"])
def test_a_failed_judge_call_leaves_its_items_unverified_with_its_reason(reason):
    annotation = run(facts(2), ScriptedJudge(batches=[JudgeFailure(reason)]))
    assert verdicts(annotation) == {0: ("unverified", reason), 1: ("unverified", reason)}
    assert annotation.judge_status == "unavailable"


@pytest.mark.parametrize("reason", ["deadline", "budget", "judge_unavailable"])
def test_a_failed_recheck_gives_its_own_reason(reason):
    judge = ScriptedJudge(batches=[{0: "unsupported", 1: "supported"}], rechecks={0: JudgeFailure(reason)})
    annotation = run(facts(2), judge)
    assert verdicts(annotation) == {0: ("unverified", reason), 1: ("supported", None)}


def test_a_deadline_in_the_second_batch_keeps_the_first_batchs_verdicts():
    judge = ScriptedJudge(batches=[{0: "supported", 1: "unsupported"}, JudgeFailure("deadline")])
    annotation = run(facts(5), judge, batch_size=2)
    assert verdicts(annotation) == {
        0: ("supported", None), 1: ("unsupported", None),
        2: ("unverified", "deadline"), 3: ("unverified", "deadline"), 4: ("unverified", "deadline"),
    }
    assert [len(call) for call in judge.batch_calls] == [2, 2]     # no time left: the third batch is not sent
    block = block_for(annotation, annotation.segments)
    assert block["unverified_reasons"]["deadline"] == 3 and block["judge_status"] == "unavailable"


def test_a_budget_spent_on_a_recheck_ends_judging():
    judge = ScriptedJudge(batches=[{0: "unsupported", 1: "unsupported"}], rechecks={0: JudgeFailure("budget")})
    annotation = run(facts(3), judge, batch_size=2)
    assert verdicts(annotation) == {0: ("unverified", "budget"), 1: ("unverified", "budget"), 2: ("unverified", "budget")}
    assert len(judge.batch_calls) == 1 and len(judge.recheck_calls) == 1


def test_an_unavailable_judge_fails_only_that_batch():
    judge = ScriptedJudge(batches=[JudgeFailure("judge_unavailable"), {2: "supported"}])
    annotation = run(facts(3), judge, batch_size=2)
    assert verdicts(annotation) == {0: ("unverified", "judge_unavailable"), 1: ("unverified", "judge_unavailable"),
                                    2: ("supported", None)}


def test_segments_are_judged_in_batches_of_batch_size():
    judge = ScriptedJudge()
    run(facts(20), judge)
    assert [len(call) for call in judge.batch_calls] == [8, 8, 4]


def test_the_judge_sees_the_segment_its_context_and_its_passages_never_the_question():
    segments = (
        Segment("Anggaran 2023", "framing", (), "heading"),
        Segment("Rinciannya:", "framing"),
        Segment("Pendidikan Rp 5 miliar.", "fact", ("P1",), "list_item"),
    )
    judge = ScriptedJudge()
    run(segments, judge)
    [[item]] = judge.batch_calls
    assert item == JudgeItem(2, "Pendidikan Rp 5 miliar.", "Heading: Anggaran 2023\nList lead-in: Rinciannya:", {"P1": P1})
    assert QUESTION not in item.context


# --- framing ---------------------------------------------------------------------------------


def test_framing_is_checked_in_one_call_and_checkable_framing_becomes_uncited():
    segments = (
        Segment("Halo!", "framing"),
        Segment("Anggarannya Rp 5 miliar.", "framing"),
        Segment("Anggaran pendidikan 2023 adalah Rp 5 miliar.", "fact", ("P1",), "paragraph"),
        Segment("Semoga membantu.", "framing"),
    )
    checker = ScriptedFramingChecker(checkable={1, 99})
    annotation = run(segments, checker=checker)
    assert checker.calls == [(QUESTION, [(0, "Halo!"), (1, "Anggarannya Rp 5 miliar."), (3, "Semoga membantu.")])]
    assert verdicts(annotation) == {1: ("uncited", None), 2: ("supported", None)}
    assert annotation.claims[0].segment.kind == "framing"
    assert annotation.framing == (0, 3) and annotation.framing_check == "complete"
    rendered = render_segments(segments)
    assert claims_json(annotation, rendered.spans, lambda key: None)[0]["kind"] == "framing"
    assert [item["text"] for item in framing_json(annotation, rendered.spans)] == ["Halo!", "Semoga membantu."]


def test_a_failed_framing_check_shows_every_framing_segment_uncited():
    segments = (Segment("Berikut datanya.", "framing"), *facts(1), Segment("Semoga membantu.", "framing"))
    annotation = run(segments, checker=ScriptedFramingChecker(failure="deadline"))
    assert verdicts(annotation) == {0: ("uncited", None), 1: ("supported", None), 2: ("uncited", None)}
    assert annotation.framing == () and annotation.framing_check == "unavailable"
    block = block_for(annotation, segments)
    assert (block["framing_total"], block["uncited"], block["verification"]) == (0, 2, "partial")


def test_no_framing_means_the_framing_check_is_skipped():
    checker = ScriptedFramingChecker()
    annotation = run(facts(1), checker=checker)
    assert annotation.framing_check == "skipped" and checker.calls == []


def test_framing_that_cites_a_passage_is_judged_as_a_fact():
    checker = ScriptedFramingChecker()
    judge = ScriptedJudge(batches=[{0: "unsupported"}], rechecks={0: "unsupported"})
    annotation = run((Segment("Menurut Qanun 1/2023:", "framing", ("P1",)),), judge, checker)
    [claim] = annotation.claims
    assert (claim.verdict, claim.segment.kind) == ("unsupported", "framing")
    assert checker.calls == [] and annotation.framing_check == "skipped"


# --- the faithfulness block ------------------------------------------------------------------


def test_verification_is_full_only_when_every_claim_is_supported_and_nothing_is_unlocated():
    segments = (Segment("Berikut datanya.", "framing"), *facts(2))
    annotation = run(segments)
    rendered = render_segments(segments)
    assert faithfulness_block(annotation, rendered, rendered.answer)["verification"] == "full"
    with_notice = faithfulness_block(annotation, rendered, rendered.answer + "\n\n(Jawaban dipotong.)")
    assert (with_notice["unlocated_total"], with_notice["verification"]) == (1, "partial")


def test_a_from_conversation_claim_makes_it_partial_and_is_left_out_of_grounding():
    segments = (*facts(1), Segment("Anda menyebut tahun 2023.", "fact", ("memory",)))
    block = block_for(run(segments), segments)
    assert (block["claims_total"], block["supported"], block["from_conversation"]) == (2, 1, 1)
    assert block["verification"] == "partial"
    assert block["grounding"] == {"claims_supported": 1, "claims_total": 1, "grounding_rate": 1.0}


def test_verification_is_none_when_no_claim_is_supported():
    segments = facts(2, cites=())
    block = block_for(run(segments), segments)
    assert (block["verification"], block["uncited"]) == ("none", 2)
    assert block["grounding"] == {"claims_supported": 0, "claims_total": 2, "grounding_rate": 0.0}


def test_a_greeting_with_nothing_to_check_is_verification_none_with_no_rate():
    segments = (Segment("Halo! Ada yang bisa saya bantu?", "framing"),)
    block = block_for(run(segments), segments)
    assert (block["verification"], block["claims_total"], block["framing_total"]) == ("none", 0, 1)
    assert block["grounding"] == {"claims_supported": 0, "claims_total": 0, "grounding_rate": None}
    assert (block["judge_status"], block["framing_check"]) == ("skipped", "complete")


def test_only_conversation_claims_give_no_rate():
    segments = (Segment("Anda menyebut 2023.", "fact", ("memory",)),)
    assert block_for(run(segments), segments)["grounding"]["grounding_rate"] is None


def test_the_grounding_rate_is_rounded_like_v1():
    judge = ScriptedJudge(batches=[{0: "supported", 1: "unsupported", 2: "unsupported"}])
    segments = facts(3)
    assert block_for(run(segments, judge), segments)["grounding"]["grounding_rate"] == 0.3333


def test_a_refusal_has_no_claims_one_unlocated_run_and_nothing_checked():
    annotation = Annotation.for_refusal()
    notice = "Maaf, saya tidak menemukan informasi yang relevan."
    block = faithfulness_block(annotation, None, notice)
    assert (block["claims_total"], block["framing_total"], block["unlocated_total"]) == (0, 0, 1)
    assert (block["verification"], block["judge_status"], block["framing_check"]) == ("none", "skipped", "skipped")
    assert block["grounding"]["grounding_rate"] is None
    assert claims_json(annotation, (), lambda key: None) == [] and framing_json(annotation, ()) == []
    assert faithfulness_block(annotation, Rendered.plain(notice), notice)["unlocated_total"] == 1
    frame = annotations_frame(annotation, None, notice, fallback_used=True, fallback_reason="model_timeout")
    assert (frame["claims"], frame["framing"], frame["fallback_reason"]) == ([], [], "model_timeout")


def test_checked_false_is_reported_only_when_nothing_was_checked():
    notice = "Sumber yang dibutuhkan tidak muat dalam konteks model."
    assert faithfulness_block(Annotation.for_refusal(), None, notice, checked=False)["checked"] is False
    frame = annotations_frame(Annotation.for_refusal(), None, notice, fallback_used=True,
                              fallback_reason="context_budget_exhausted", checked=False)
    assert frame["checked"] is False
    assert "checked" not in faithfulness_block(Annotation.for_refusal(), None, notice, checked=True)
    assert "checked" not in faithfulness_block(Annotation.for_refusal(), None, notice)


def test_the_block_refuses_an_answer_the_offsets_do_not_apply_to():
    rendered = render_segments(SEED_SEGMENTS)
    with pytest.raises(ValueError, match="offsets"):
        faithfulness_block(run(SEED_SEGMENTS), rendered, "Jawaban lain.")


# --- the deterministic judges ----------------------------------------------------------------


def test_the_deterministic_judge_applies_v1s_rule_in_batches_and_rechecks():
    judge = DeterministicJudge()
    items = [
        JudgeItem(0, "Anggaran pendidikan 2023 adalah Rp 5.000.000.000.", "", {"P1": P1}),
        JudgeItem(1, "Anggaran pendidikan 2023 adalah Rp 5 juta.", "", {"P1": P1}),
        JudgeItem(2, "Anggaran pendidikan 2024 adalah Rp 5 miliar.", "", {"P1": P1}),
    ]
    assert judge.judge_batch(items) == {0: "supported", 1: "unsupported", 2: "unsupported"}
    assert judge.recheck(items[1]) == "unsupported" and judge.recheck(items[0]) == "supported"
    assert judge.mechanism


@pytest.mark.parametrize(
    "text, checkable",
    [
        ("Berikut datanya.", False),
        ("Berikut ringkasannya:", False),
        ("Halo! Ada yang bisa saya bantu?", False),
        ("Informasi tersebut tidak ditemukan dalam dokumen yang tersedia.", False),
        ("Berdasarkan dokumen Qanun Aceh:", False),
        ("Here is a summary based on the documents:", False),
        ("Berikut tiga poin utama:", True),                       # a number word
        ("Ditetapkan pada 12 Januari 2023.", True),               # a date
        ("Ya, masih berlaku.", True),                             # answers a yes/no question
        ("Tidak, qanun itu sudah dicabut.", True),
        ("Anggarannya naik untuk pendidikan.", True),             # shares the question's subject
        ("Gubernur menetapkan peraturan pelaksana setelah mendengar pertimbangan DPRA.", True),  # asserts a lot
    ],
)
def test_the_deterministic_framing_checker(text, checkable):
    assert (DeterministicFramingChecker().check(QUESTION, [(3, text)]) == {3}) is checkable


def test_a_judge_failure_names_a_known_reason():
    assert JudgeFailure("budget").reason == "budget"
    with pytest.raises(ValueError):
        JudgeFailure("tired")
