"""Fit the embedded answerer's answerability decision on the training part and freeze it (evaluation/fitting.py)."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from answering.evaluation import load_set
from answering.evaluation.fitting import (crosslingual_offsets, example, fit, project_example, scores,
                                          write as write_params)
from answering.evaluation.quality import ask, run_conversation, run_single
from kernel.evaluation_tools import require_evaluation_tools
from retrieval.facade.search import get_embedder
from retrieval.facade.quality import in_part, read_rows


def _project_examples(paths: list[Path]) -> list:
    """The project's own sets (fit data too: the code was tuned on them)."""
    examples = []
    for path in paths:
        for question in load_set(path):
            result, _ = ask(question.question, route="query", conversation_id=None, collection=None)
            read_text = "\n".join(p.text for p in result.passages)
            if (found := project_example(question, result, read_text)) is not None:
                examples.append(found)
    return examples


def _examples(part: str, directory: Path | None = None) -> tuple[list, int]:
    """Labelled examples from one part of the shared sets (``directory``: every row of another set of that form)."""
    records = []
    for name in ("questions", "unanswerable"):
        for row in in_part(read_rows(name, directory), part):
            records.append(run_single(row, name, route="query", collection=None))
    for row in in_part(read_rows("conversations", directory), part):
        records.extend(run_conversation(row, route="query", collection=None))
    examples = [e for r in records if (e := example(r, r.answerability)) is not None]
    return examples, len(records) - len(examples)


def _unit_examples(part: str, project_sets: list[Path], quality_dirs: list[tuple[Path, str]] = ()) -> list:
    """Labelled units of the answerable questions' passages (unit_fitting.py)."""
    from answering.evaluation import unit_fitting

    examples = []
    for directory, directory_part in [(None, part), *quality_dirs]:
        for row in in_part(read_rows("questions", directory), directory_part):
            result, _ = ask(row["query"], route="query", conversation_id=None, collection=None)
            evidences = [r.get("evidence", "") for r in row.get("relevant", [])]
            name = f"q:{row['id']}" if directory is None else f"{directory.name}:{row['id']}"
            examples += unit_fitting.question_examples(name, row["query"], evidences, result.passages)
    for path in project_sets:
        for question in load_set(path):
            if question.answerable:
                result, _ = ask(question.question, route="query", conversation_id=None, collection=None)
                examples += unit_fitting.question_examples(f"bench:{question.id}", question.question,
                                                           [question.evidence], result.passages)
    return examples


SPLIT_PARTS = ("train", "validation", "all")


def _quality_dir(value: str) -> tuple[Path, str]:
    """``DIR`` (every row) or ``DIR:train`` / ``DIR:validation`` (one part of the fixed split)."""
    directory, _, part = value.rpartition(":")
    return (Path(directory), part) if directory and part in SPLIT_PARTS else (Path(value), "all")


class Command(BaseCommand):
    help = ("Run the training part of ../shared/quality/ through /query, fit the answerability decision (logistic "
            "regression over the answer's signals), print the fitted values and the validation figures, and write "
            "answering/extractive/answerability.json (with --write).")

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="Freeze the fitted parameters (answerability.json).")
        parser.add_argument("--regularisation", type=float, default=1.0, help="Inverse L2 strength (C); default 1.0.")
        parser.add_argument("--units", action="store_true",
                            help="Fit the unit ranker instead (answering/extractive/unit_ranker.json with --write).")
        parser.add_argument("--offsets-only", action="store_true",
                            help="Measure only the cross-lingual offsets (decision.py) on the examples and, with "
                                 "--write, freeze them beside the frozen weights, which stay as they are.")
        parser.add_argument("--only", action="append", default=[], metavar="SIGNAL",
                            help="With --units: fit only this signal's weight (a signal new to the ranker), keeping "
                                 "the frozen ranker's other weights; repeatable.")
        parser.add_argument("--with-set", type=Path, action="append", default=[], dest="project_sets",
                            help="Also fit on a project set (bench/answers_*.jsonl); repeatable.")
        parser.add_argument("--with-quality-dir", type=_quality_dir, action="append", default=[], dest="quality_dirs",
                            metavar="DIR[:PART]",
                            help="Also fit on a set in the shared sets' form: every row (bench/fresh), or one part of "
                                 "its split (bench/fresh2:train keeps the other half held out); repeatable.")

    def handle(self, *args, write: bool, regularisation: float, project_sets: list, units: bool, quality_dirs: list,
               only: list, offsets_only: bool = False, **options):
        require_evaluation_tools("fit_answerability", "sklearn")
        if only and not units:
            raise CommandError("--only applies to the unit ranker (--units)")
        if units:
            return self._fit_units(write, regularisation, project_sets, quality_dirs, tuple(only))
        try:
            train, skipped = _examples("train")
            extra = _project_examples(project_sets)
            for directory, part in quality_dirs:
                extra += _examples(part, directory)[0]
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read the shared sets: {exc}") from exc
        if len({e.label for e in train}) < 2:
            raise CommandError("the training part needs answerable and unanswerable examples")
        if offsets_only:
            return self._fit_offsets(write, train, extra)
        params = fit(train + extra, regularisation=regularisation)
        self.stdout.write(f"training examples {len(train) + len(extra)} ({params['fitted_on']['positives']} answerable "
                          f"with their evidence read, {params['fitted_on']['negatives']} unanswerable; {len(extra)} of "
                          f"them from the project's sets; {skipped} shared rows left out: evidence never read or no "
                          "candidate)")
        for name, weight in params["weights"].items():
            self.stdout.write(f"  {name:<18} weight {weight:+.3f}  mean {params['means'][name]:.4f}  "
                              f"scale {params['scales'][name]:.4f}")
        self.stdout.write(f"  intercept {params['intercept']:+.3f}  threshold {params['threshold']}")
        self.stdout.write(f"fit (training part): {scores(params, train)}")
        if extra:
            self.stdout.write(f"fit (project sets): {scores(params, extra)}")
        validation, _ = _examples("validation")
        self.stdout.write(f"validation part (held out): {scores(params, validation)}")
        if write:
            write_to = get_embedder().model_name
            write_params(params, write_to)
            self.stdout.write(f"written for {write_to}")



    def _fit_offsets(self, write: bool, train: list, extra: list) -> None:
        from answering.extractive.decision import PARAMS_PATH

        frozen = json.loads(PARAMS_PATH.read_text())
        params = {**frozen, "crosslingual_offsets": crosslingual_offsets(train + extra)}
        english = sum(e.english for e in train + extra)
        self.stdout.write(f"cross-lingual offsets over {len(train) + len(extra)} examples ({english} English): "
                          f"{params['crosslingual_offsets']}")
        validation, _ = _examples("validation")
        for name, values in (("frozen", frozen), ("with the offsets", params)):
            self.stdout.write(f"{name}: fit (training part) {scores(values, train)}; validation part (held out) "
                              f"{scores(values, validation)}")
        if write:
            write_params({k: v for k, v in params.items() if k != "embedding_model"}, frozen["embedding_model"])
            self.stdout.write(f"written for {frozen['embedding_model']}")

    def _fit_units(self, write: bool, regularisation: float, project_sets: list, quality_dirs: list,
                   only: tuple[str, ...]) -> None:
        from answering.evaluation import unit_fitting
        from answering.extractive.ranker import FEATURES, PARAMS_PATH, frozen_ranker

        if unknown := sorted(set(only) - set(FEATURES)):
            raise CommandError(f"no such signal: {', '.join(unknown)} (the ranker's: {', '.join(FEATURES)})")
        try:
            train = _unit_examples("train", project_sets, quality_dirs)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read the sets: {exc}") from exc
        if len({e.label for e in train}) < 2:
            raise CommandError("no training question has a read unit that states its evidence")
        params = unit_fitting.fit(train, regularisation=regularisation, only=only,
                                  frozen=json.loads(PARAMS_PATH.read_text()) if only else None)
        fitted = params["fitted_on"]
        self.stdout.write(f"unit examples {fitted['units']} ({fitted['positives']} state a gold evidence) from "
                          f"{fitted['questions']} questions whose passages hold their evidence")
        for name, weight in params["weights"].items():
            self.stdout.write(f"  {name:<20} weight {weight:+.3f}  mean {params['means'][name]:.4f}  "
                              f"scale {params['scales'][name]:.4f}")
        self.stdout.write(f"  intercept {params['intercept']:+.3f}")
        frozen = vars(frozen_ranker())
        self.stdout.write(f"fit (training): {unit_fitting.ranking_scores(params, train)}; "
                          f"frozen ranker: {unit_fitting.ranking_scores(frozen, train)}")
        validation = _unit_examples("validation", [])
        self.stdout.write(f"validation part (held out): {unit_fitting.ranking_scores(params, validation)}; "
                          f"frozen ranker: {unit_fitting.ranking_scores(frozen, validation)}")
        if write:
            unit_fitting.write(params, get_embedder().model_name)
            self.stdout.write("written answering/extractive/unit_ranker.json")
