"""Print retrieval quality figures for a labelled question set."""
import json
from dataclasses import replace
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings

from kernel.evaluation_tools import require_evaluation_tools
from kernel.progress import CommandProgress
from retrieval.access import Scope, visible_documents_q
from retrieval.evaluation import (
    EVALUATOR, as_json, bm25_ranker, evaluate, format_table, gold_missing_warning, load_questions, search_ranker,
)
from retrieval.evaluation_styles import STYLES, format_twins, style_scores, twin_summary, twins_json
from retrieval.models import Chunk, Document
from retrieval.search.hybrid import MODES

MISS_CUTOFF = 5


def _stages_off():
    """Settings for today's plain legs: no glossary rewriting, no question-aware stages."""
    retrieval = replace(settings.ACEH_RAG.retrieval, query_understanding=False, within_document_rerank=False)
    return override_settings(ACEH_RAG=replace(settings.ACEH_RAG, retrieval=retrieval))


class Command(BaseCommand):
    help = (
        "Recall@1/5/10, MRR@10 and nDCG@10 (ranx) per search mode and per question kind, with a rank_bm25 "
        "baseline over the same chunks."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", type=Path,
            help='JSONL: {"query": ..., "kind": ..., "relevant": [{"document": ..., "pasal": ...}]}',
        )
        parser.add_argument("--modes", default="hybrid,semantic,lexical")
        parser.add_argument("--k", type=int, default=10)
        parser.add_argument("--collection", action="append", default=[], help="Restrict to a collection (repeatable).")
        parser.add_argument("--baseline", action="store_true",
                            help="Also run each mode with the glossary and question-aware stages off (suffix -base).")
        parser.add_argument("--misses", action="store_true", help=f"List the questions each mode misses in its top {MISS_CUTOFF}.")
        parser.add_argument("--json", type=Path, dest="json_path", help="Also write every figure and per-question rank here.")
        parser.add_argument("--no-bm25", action="store_true", help="Skip the rank_bm25 baseline.")
        parser.add_argument("--part", choices=("train", "validation", "all"), default="all",
                            help="With ../shared/quality/questions.jsonl: one part of its fixed split (retrieval.quality).")

    def handle(self, *args, file, modes, k, collection, baseline, misses, json_path, no_bm25, part, **options):
        require_evaluation_tools("eval_retrieval", "ranx")
        try:
            questions = load_questions(file)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        if part != "all":
            questions = [q for q in questions if q.split == part]
        if not questions:
            raise CommandError(f"{file}: no questions" + (f" in the {part} part" if part != "all" else ""))
        chosen = [mode.strip() for mode in modes.split(",") if mode.strip()]
        unknown = [mode for mode in chosen if mode not in MODES]
        if unknown:
            raise CommandError(f"unknown mode(s): {', '.join(unknown)}; choose from {', '.join(MODES)}")
        k = max(k, 10)
        scope = Scope.from_request(collection or None, None)
        if not Chunk.objects.filter(document__in=_visible(scope)).exists():
            where = f"collection(s) {', '.join(collection)}" if collection else "the database"
            raise CommandError(f"no indexed chunks in {where}: nothing to evaluate (ingest first, or check --collection)")
        self._warn_missing_gold(questions, scope)
        plan = [(mode, False) for mode in chosen]
        plan += [(f"{mode}-base", True) for mode in chosen if baseline and mode != "semantic"]
        runs = []
        with CommandProgress(len(questions) * (len(plan) + (not no_bm25)), stdout=self.stdout, label="searches",
                             every=25) as bar:
            for name, stages_off in plan:
                mode = name.removesuffix("-base")
                if stages_off:
                    with _stages_off():
                        runs.append(evaluate(name, questions, _counted(search_ranker(mode, scope, k), bar, name), k))
                else:
                    runs.append(evaluate(name, questions, _counted(search_ranker(mode, scope, k), bar, name), k))
            if not no_bm25:
                runs.append(evaluate("bm25", questions, _counted(bm25_ranker(scope, k), bar, "bm25"), k))
        self.stdout.write(f"{len(questions)} questions from {file}")
        self.stdout.write(format_table([overall for overall, _ in runs]))
        self.stdout.write("\nper kind")
        kinds = list(dict.fromkeys(row.kind for _, rows in runs for row in rows))
        self.stdout.write(format_table(
            [row for kind in kinds for _, rows in runs for row in rows if row.kind == kind], by_kind=True
        ))
        styles = [style_scores(overall, questions, k) for overall, _ in runs]
        if any(styles):
            self.stdout.write("\nper style")
            self.stdout.write(format_table(
                [row for style in STYLES for rows in styles for row in rows if row.kind == style],
                by_kind=True, column="style",
            ))
        twins = [summary for overall, _ in runs if (summary := twin_summary(overall, questions, k))]
        if twins:
            self.stdout.write(f"\ntwin pairs ({twins[0].groups} groups; gap = R@5 minus the formal twins' R@5, "
                              "lost = groups whose formal row is in the top 5 and this one is not)")
            self.stdout.write(format_twins(twins))
        if misses:
            self._misses(questions, runs)
        if json_path:
            self._write_json(json_path, file, questions, runs, styles, twins)

    def _warn_missing_gold(self, questions, scope) -> None:
        warning = gold_missing_warning((label.document for question in questions for label in question.labels), scope)
        if warning:
            self.stderr.write(self.style.WARNING(warning))

    def _misses(self, questions, runs):
        for overall, _ in runs:
            missed = [(q, first, top) for q, first, top in zip(questions, overall.firsts, overall.tops)
                      if first is None or first > MISS_CUTOFF]
            self.stdout.write(f"\nmisses of {overall.name} (not in top {MISS_CUTOFF}): {len(missed)}")
            for question, first, top in missed:
                wanted = "; ".join(f"{label.document}" + (f" Pasal {label.pasal}" if label.pasal else "") for label in question.labels)
                self.stdout.write(f"- [{question.kind}] {question.query}\n    wanted {wanted}; first at {first or '-'}; top: {' | '.join(top)}")

    def _write_json(self, path, file, questions, runs, styles, twins):
        payload = {
            "questions_file": str(file),
            "figures": [as_json(overall) for overall, _ in runs],
            "per_kind": [as_json(row) for _, rows in runs for row in rows],
            "per_style": [{"style": row.kind, **as_json(row)} for rows in styles for row in rows],
            "twins": twins_json(twins) if twins else None,
            "questions": [
                {"query": q.query, "kind": q.kind, "styles": list(q.styles), "twin": q.twin,
                 "first_rank": {overall.name: overall.firsts[i] for overall, _ in runs}}
                for i, q in enumerate(questions)
            ],
        }
        try:
            Path(path).write_text(json.dumps(payload, ensure_ascii=False, indent=1))
        except OSError as exc:
            raise CommandError(f"cannot write {path}: {exc}") from exc
        self.stdout.write(f"\nwrote {path}")


def _counted(rank, bar: CommandProgress, name: str):
    """``rank`` that moves the progress bar after each question."""
    def counted(query):
        ranking = rank(query)
        bar.update(done=bar.done + 1, note=name)
        return ranking
    return counted


def _visible(scope):
    return Document.objects.filter(visible_documents_q(EVALUATOR, scope))
