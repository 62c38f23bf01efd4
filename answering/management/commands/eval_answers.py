"""Print answer quality figures: the shared development sets (default) or one of the project's own sets."""
import json as json_module
from dataclasses import asdict
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from kernel.progress import CommandProgress
from answering.evaluation import load_set, record_json, run_question, summary_lines
from answering.evaluation.quality import QualityRecord, run_conversation, run_single
from answering.evaluation.report import summary_lines as quality_lines
from retrieval.facade import Scope
from retrieval.facade.quality import PARTS, gold_missing_warning, gold_places, in_part, quality_dir, read_rows


class Command(BaseCommand):
    help = ("Run questions through the answer pipeline and print what a reader would judge. Without FILE: the "
            "development sets of ../shared/quality/ in their fixed split (--part train|validation|all): answerable "
            "published, unanswerable declined, the gold evidence in the answer text, the first sentence carrying the "
            "figure/date/name/yes-no, follow-ups answered from the right document. With FILE: one of the project's "
            "own JSONL sets (bench/answers_*.jsonl; fit figures).")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, nargs="?", help="A project JSONL set (bench/answers_*.jsonl).")
        parser.add_argument("--part", choices=PARTS, default="validation",
                            help="Which part of the shared sets' split (default validation; train is the fit part).")
        parser.add_argument("--quality-dir", dest="directory", type=Path, default=None, help="Where the shared sets are.")
        parser.add_argument("--route", choices=("query", "v2"), default="query",
                            help="Answer pipeline to run: /query (default) or /query/v2.")
        parser.add_argument("--collection", default=None, help="Restrict to one collection id.")
        parser.add_argument("--json", action="store_true", help="One JSON record per answer instead of the summary.")
        parser.add_argument("--records", type=Path, default=None, help="Also write every record (JSONL) here.")

    def handle(self, *args, file, part, directory, route, collection, json, records, **options):
        if file is not None:
            return self._project_set(file, route, collection, json)
        try:
            rows = {name: in_part(read_rows(name, directory), part)
                    for name in ("questions", "unanswerable", "conversations")}
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read the shared sets in {directory or quality_dir()}: {exc}") from exc
        turns = rows["questions"] + [turn for row in rows["conversations"] for turn in row["turns"]]
        self._warn_missing_gold(
            (gold.document for turn in turns for gold in gold_places(list(turn.get("relevant") or ()))), collection)
        results: list[QualityRecord] = []
        total = sum(len(rows[name]) for name in rows)
        with CommandProgress(total, stdout=self.stdout, label="questions", every=25) as bar:
            for name in ("questions", "unanswerable"):
                for row in rows[name]:
                    results.append(run_single(row, name, route=route, collection=collection))
                    bar.update(done=bar.done + 1, note=name)
                    if json:
                        bar.line(json_module.dumps(asdict(results[-1]), ensure_ascii=False))
            for row in rows["conversations"]:
                for record in run_conversation(row, route=route, collection=collection):
                    results.append(record)
                    if json:
                        bar.line(json_module.dumps(asdict(record), ensure_ascii=False))
                bar.update(done=bar.done + 1, note="conversations")
        if records:
            records.write_text("".join(json_module.dumps(asdict(r), ensure_ascii=False) + "\n" for r in results))
        if not json:
            label = "validation (held out)" if part == "validation" else "train (fit)" if part == "train" else "all (fit + held out)"
            route_name = "/query/v2" if route == "v2" else "/query"
            for line in quality_lines(results, f"shared quality sets, {label}, on {route_name}"):
                self.stdout.write(line)

    def _project_set(self, file, route, collection, json):
        try:
            questions = load_set(file)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        self._warn_missing_gold((question.source for question in questions if question.answerable), collection)
        records = []
        with CommandProgress(len(questions), stdout=self.stdout, label="questions", every=25) as bar:
            for question in questions:
                record = run_question(question, route=route, collection=collection)
                records.append(record)
                bar.update(done=bar.done + 1)
                if json:
                    bar.line(record_json(record))
        if not json:
            self.stdout.write(f"{len(questions)} questions from {file} on /{'query/v2' if route == 'v2' else 'query'} "
                              "(a project set: fit figures)")
            for line in summary_lines(records):
                self.stdout.write(line)

    def _warn_missing_gold(self, names, collection) -> None:
        warning = gold_missing_warning(names, Scope.from_request([collection] if collection else None, None))
        if warning:
            self.stderr.write(self.style.WARNING(warning))
