"""Fit the embedded answerer's answerability decision on the training part and freeze it (evaluation/fitting.py)."""
from django.core.management.base import BaseCommand, CommandError

from answering.evaluation.fitting import example, fit, scores, write as write_params
from answering.evaluation.quality import run_conversation, run_single
from retrieval.embedders import get_embedder
from retrieval.quality import in_part, read_rows


def _examples(part: str) -> tuple[list, int]:
    records = []
    for name in ("questions", "unanswerable"):
        for row in in_part(read_rows(name), part):
            records.append(run_single(row, name, route="query", collection=None))
    for row in in_part(read_rows("conversations"), part):
        records.extend(run_conversation(row, route="query", collection=None))
    examples = [e for r in records if (e := example(r, r.answerability)) is not None]
    return examples, len(records) - len(examples)


class Command(BaseCommand):
    help = ("Run the training part of ../shared/quality/ through /query, fit the answerability decision (logistic "
            "regression over the answer's signals), print the fitted values and the validation figures, and write "
            "answering/extractive/answerability.json (with --write).")

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="Freeze the fitted parameters (answerability.json).")
        parser.add_argument("--regularisation", type=float, default=1.0, help="Inverse L2 strength (C); default 1.0.")

    def handle(self, *args, write: bool, regularisation: float, **options):
        try:
            train, skipped = _examples("train")
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read the shared sets: {exc}") from exc
        if len({e.label for e in train}) < 2:
            raise CommandError("the training part needs answerable and unanswerable examples")
        params = fit(train, regularisation=regularisation)
        self.stdout.write(f"training examples {len(train)} ({params['fitted_on']['positives']} answerable with their "
                          f"evidence read, {params['fitted_on']['negatives']} unanswerable; {skipped} left out: "
                          "evidence never read)")
        for name, weight in params["weights"].items():
            self.stdout.write(f"  {name:<18} weight {weight:+.3f}  mean {params['means'][name]:.4f}  "
                              f"scale {params['scales'][name]:.4f}")
        self.stdout.write(f"  intercept {params['intercept']:+.3f}  threshold {params['threshold']}")
        self.stdout.write(f"fit (training part): {scores(params, train)}")
        validation, _ = _examples("validation")
        self.stdout.write(f"validation part (held out): {scores(params, validation)}")
        if write:
            write_to = get_embedder().model_name
            write_params(params, write_to)
            self.stdout.write(f"written for {write_to}")


