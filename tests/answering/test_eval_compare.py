"""Two eval_answers runs compared: figures before and after, fit answers shown, held-out ones only counted."""
from __future__ import annotations

import json
from dataclasses import asdict, replace

from answering.evaluation.compare import changes, figure_pairs, read_records
from answering.evaluation.quality import QualityRecord


def record(id: str, split: str, decision: str = "published", evidence: bool = True, answer: str = "Ya.") -> QualityRecord:
    return QualityRecord(id=id, split=split, set="questions", kind="yes-no", query=f"question {id}?", answerable=True,
                         decision=decision, reason=None if decision == "published" else "no_answer", answer=answer,
                         cited_documents=[], ms=10.0,
                         verdicts={"answer_gold_evidence": evidence, "cited_gold_evidence": evidence,
                                   "read_gold_evidence": True, "gold_document_cited": evidence,
                                   "first_sentence": {"yesno": evidence}})


def test_a_held_out_answer_that_changed_is_counted_and_never_shown(tmp_path):
    before = [record("t1", "train"), record("t2", "train"), record("v1", "validation")]
    after = [replace(before[0], decision="declined", answer="Maaf."),
             before[1],
             replace(before[2], answer="Tidak.", verdicts={**before[2].verdicts, "answer_gold_evidence": False})]
    path = tmp_path / "after.jsonl"
    path.write_text("".join(json.dumps(asdict(r)) + "\n" for r in after))
    shown, held_out = changes(before, read_records(path))
    assert [(c.before.id, c.after.decision) for c in shown] == [("t1", "declined")]
    assert held_out == 1
    assert "published, evidence, first sentence right -> declined, evidence" in shown[0].lines()[0]
    pairs = dict((name, (old, new)) for name, old, new in figure_pairs(before, after))
    assert pairs["answerable questions published"] == ("3/3", "2/3")
    assert pairs["answer text carries the gold evidence"] == ("3/3", "2/3")
