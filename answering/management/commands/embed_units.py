"""Embed every chunk's answer units ahead of the first questions (the unit-vector cache, retrieval/unit_vectors.py)."""
import time

from django.core.management.base import BaseCommand, CommandError

from answering.extractive.candidates import closing_units
from answering.extractive.units import passage_units
from retrieval import facade
from retrieval.facade.search import EmbeddingError

BATCH_UNITS = 64
REPORT_EVERY = 2000


def chunk_units(kind: str, text: str) -> list[str]:
    """The units the answer step would score for a chunk of this kind (a list as most questions cut it, and
    whole, as a list question reads it)."""
    if kind == "closing":
        return closing_units(text)
    preamble, explanation = kind == "preamble", kind == "penjelasan"
    units = (passage_units(text, preamble=preamble, explanation=explanation)
             + passage_units(text, preamble=preamble, whole_lists=True, explanation=explanation))
    return list(dict.fromkeys(unit.text for unit in units))


class Command(BaseCommand):
    help = ("Embed the answer units of every enabled chunk into the unit-vector cache, so the first answers over a "
            "new corpus do not pay for it (units already cached are skipped). Run after a large ingest.")

    def handle(self, *args, **options):
        started, pending, done = time.perf_counter(), [], 0
        try:
            for kind, text in facade.chunk_texts_iter():
                pending.extend(chunk_units(kind, text))
                if len(pending) >= BATCH_UNITS:
                    facade.unit_vectors_get(pending)
                    reported = done // REPORT_EVERY
                    done, pending = done + len(pending), []
                    if done // REPORT_EVERY > reported:
                        self.stdout.write(f"{done} units · {done / (time.perf_counter() - started):.1f} units/s")
            if pending:
                facade.unit_vectors_get(pending)
                done += len(pending)
        except EmbeddingError as exc:
            raise CommandError(f"embedding failed after {done} units: {exc}") from exc
        self.stdout.write(f"{done} units checked in {time.perf_counter() - started:.0f} s")
