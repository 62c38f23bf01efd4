"""Print retrieval quality figures for a labelled question set."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from retrieval.access import Scope
from retrieval.evaluation import bm25_ranker, evaluate, format_table, load_questions, search_ranker
from retrieval.search.hybrid import MODES


class Command(BaseCommand):
    help = "Recall@1/5/10, MRR@10 and nDCG@10 per search mode, with a rank_bm25 baseline over the same chunks."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="JSONL: {\"query\": ..., \"relevant\": [{\"document\": ..., \"pasal\": ...}]}")
        parser.add_argument("--modes", default="hybrid,semantic,lexical")
        parser.add_argument("--k", type=int, default=10)
        parser.add_argument("--collection", action="append", default=[], help="Restrict to a collection (repeatable).")

    def handle(self, *args, file, modes, k, collection, **options):
        try:
            questions = load_questions(file)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        chosen = [mode.strip() for mode in modes.split(",") if mode.strip()]
        unknown = [mode for mode in chosen if mode not in MODES]
        if unknown:
            raise CommandError(f"unknown mode(s): {', '.join(unknown)}; choose from {', '.join(MODES)}")
        k = max(k, 10)
        scope = Scope.from_request(collection or None, None)
        rows = [evaluate(mode, questions, search_ranker(mode, scope, k), k) for mode in chosen]
        rows.append(evaluate("bm25", questions, bm25_ranker(scope, k), k))
        self.stdout.write(f"{len(questions)} questions from {file}")
        self.stdout.write(format_table(rows))
