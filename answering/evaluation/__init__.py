"""Answer quality harness behind ``manage.py eval_answers``.

``quality``: the development sets of ``../shared/quality/`` (answerable,
unanswerable, conversations) in their fixed train/validation split, measured
as a reader would (published or declined, the gold evidence in the answer
text, the first sentence carrying the figure, date, name or yes/no, follow-ups
answered from the right document). ``bench_sets``: the project's own sets in
``bench/`` (fit figures: the code was tuned on them).
"""
from answering.evaluation.bench_sets import (  # noqa: F401
    EvalQuestion, EvalRecord, carries, figure_present, load_set, record_json, run_question, summary_lines,
)
