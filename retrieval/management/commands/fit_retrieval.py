"""Fit hybrid search's fusion on the training part of the quality questions (retrieval/fusion_fit.py)."""
from dataclasses import replace
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from kernel.config.retrieval import RETRIEVAL_FIT_PATH
from kernel.evaluation_tools import require_evaluation_tools
from retrieval.access import Scope
from retrieval.evaluation import format_table, load_questions
from retrieval.fusion_fit import fit, write
from retrieval.quality import FILES, quality_dir


class Command(BaseCommand):
    help = ("Choose the fusion's weights, RRF constant, candidate limits and document leg on the training part of "
            "../shared/quality/questions.jsonl by coordinate ascent (mean of R@5 and MRR@10); print training (fit) "
            "and validation figures before and after; --write freezes the values in kernel/config/retrieval_fit.json.")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, nargs="?", help="Question set with a train/validation split "
                            "(default: ../shared/quality/questions.jsonl).")
        parser.add_argument("--with-set", action="append", type=Path, default=[], dest="with_sets",
                            help="Also fit on every row of this project set (fit data, e.g. bench/twins_real.jsonl).")
        parser.add_argument("--collection", action="append", default=[], help="Restrict to a collection (repeatable).")
        parser.add_argument("--write", action="store_true", help="Freeze the fitted values as the new defaults.")
        parser.add_argument("--output", type=Path, default=RETRIEVAL_FIT_PATH, help="Where --write writes.")

    def handle(self, *args, file, collection, **options):
        require_evaluation_tools("fit_retrieval", "ranx")
        path = file or quality_dir() / FILES["questions"]
        try:
            questions = load_questions(path)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        train = [question for question in questions if question.split == "train"]
        for extra in options["with_sets"]:
            try:
                train += load_questions(extra)
            except (OSError, ValueError) as exc:
                raise CommandError(str(exc)) from exc
        validation = [question for question in questions if question.split == "validation"]
        if not train:
            raise CommandError(f"{path}: no training questions (rows need an id for the split)")
        result = fit(train, validation, Scope.from_request(collection or None, None), report=self.stdout.write)
        self.stdout.write(f"\n{result.trials} trials; fitted values: {result.values}")
        rows = [result.before_train, result.train]
        names = ["train-before", "train-after"]
        if result.validation:
            rows += [result.before_validation, result.validation]
            names += ["valid-before", "valid-after"]
        self.stdout.write(format_table([replace(row, name=name) for row, name in zip(rows, names)]))
        if options["write"]:
            write(result, str(path), options["output"])
            self.stdout.write(self.style.SUCCESS(f"written to {options['output']}"))
