"""Print answer quality figures for a question set (see answering/evaluation.py)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from answering.evaluation import load_set, record_json, run_question, summary_lines


class Command(BaseCommand):
    help = ("Run each question through the answer pipeline and print, per kind: published vs declined, fallback "
            "reasons, gold evidence in the cited passages and in the answer text, figures, grounding, latency.")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="JSONL question set (bench/answers_*.jsonl)")
        parser.add_argument("--route", choices=("query", "v2"), default="query",
                            help="Answer pipeline to run: /query (default) or /query/v2.")
        parser.add_argument("--collection", default=None, help="Restrict to one collection id.")
        parser.add_argument("--json", action="store_true", help="One JSON record per question instead of the summary.")

    def handle(self, *args, file, route, collection, json, **options):
        try:
            questions = load_set(file)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        records = []
        for question in questions:
            record = run_question(question, route=route, collection=collection)
            records.append(record)
            if json:
                self.stdout.write(record_json(record))
        if not json:
            self.stdout.write(f"{len(questions)} questions from {file} on /{'query/v2' if route == 'v2' else 'query'}")
            for line in summary_lines(records):
                self.stdout.write(line)
