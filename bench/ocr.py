"""OCR against the text layer: how well retrieval/parsing/ocr.py reads the corpus's own PDFs.

1. Sample: ``--pages`` pages from each text-layer PDF of ../shared/corpus/pdf/ (from a third of the
   way in, where Pasal text is; pages whose layer needs OCR or is unreadable itself are no reference
   and are skipped), ``--files`` files.
2. Each page is rendered at ``--dpi`` and read by the ingestion stage's OCR (rotation, denoising,
   repair of structure headings), then compared with that page's own text layer, both with page-number
   lines dropped, whitespace collapsed and typography folded (NFKC, straight quotes): character and word
   error rates (jiwer), and the share of the layer's Pasal headings (``Pasal 12``, ``Pasal 12A``) the OCR text also has.
3. ``--hard``: the PDFs of ../shared/corpus/pdf/hard/ (a scan and two broken-font regulations) through
   extraction with OCR and the legal-structure parser: pages read, mean confidence, chunks, Pasal
   chunks, and the first Pasal chunks with their page numbers.

Run: .venv/bin/python bench/ocr.py [--files 12] [--pages 2] [--dpi 300] [--languages ind+eng] [--hard]
Targets (issue #37): median CER <= 2 %, >= 95 % of Pasal headings recovered.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jiwer  # noqa: E402

from retrieval.parsing import extract_file, parse_document  # noqa: E402
from retrieval.parsing.ocr import OcrOptions, ocr_pdf_pages, ocr_unavailable  # noqa: E402
from retrieval.parsing.ocr_repair import repair_structure  # noqa: E402
from retrieval.parsing.pdf import _pages_needing_ocr, _pdf_pages_pypdf, _text_quality_problem  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "pdf"
PAGE_NUMBER = re.compile(r"^\s*(?:[-–—]\s*)?\d{1,4}(?:\s*[-–—])?\s*$")
PASAL = re.compile(r"(?m)^\s*Pasal\s+(\d+[A-Z]?)\s*$")


# Differences that are typography, not reading: the same glyphs on paper, different code points in the layer
# (an ellipsis "…" prints as "...", ligatures "ﬁ" as "fi" - NFKC; curly quotes as straight ones).
QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})


def comparable(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(QUOTES)
    return " ".join(" ".join(line for line in text.splitlines() if not PAGE_NUMBER.match(line)).split())


def sample(files: int, per_file: int) -> list[tuple[Path, bytes, list[int], list[str]]]:
    chosen = []
    for path in sorted(CORPUS.glob("*.pdf"))[:files]:
        data = path.read_bytes()
        pages = _pdf_pages_pypdf(data, max_pages=5_000)
        skip = set(_pages_needing_ocr(data, pages))
        # A page whose layer is itself unreadable (perpres-60-2019's appendix carries a junk OCR layer) is no
        # reference to measure against.
        middle = [n for n in range(max(2, len(pages) // 3), len(pages) + 1)
                  if n not in skip and pages[n - 1].strip() and _text_quality_problem([pages[n - 1]]) is None]
        chosen.append((path, data, middle[:per_file], pages))
    return chosen


def against_text_layer(args) -> None:
    options = OcrOptions(dpi=args.dpi, languages=args.languages)
    cers, wers, headings, found, seconds, pages_read = [], [], 0, 0, 0.0, 0
    print(f"{'file':52} page   CER    WER  Pasal headings")
    for path, data, numbers, layer in sample(args.files, args.pages):
        started = time.perf_counter()
        read = ocr_pdf_pages(data, numbers, options)
        seconds += time.perf_counter() - started
        pages_read += len(read)
        for page in read:
            truth, ocr = comparable(layer[page.number - 1]), comparable(repair_structure(page.text))
            cer, wer = jiwer.cer(truth, ocr), jiwer.wer(truth, ocr)
            expected = PASAL.findall(layer[page.number - 1])
            got = set(PASAL.findall(repair_structure(page.text)))
            headings += len(expected)
            found += sum(1 for label in expected if label in got)
            cers.append(cer)
            wers.append(wer)
            print(f"{path.name[:52]:52} {page.number:4} {cer:6.1%} {wer:6.1%}  {sum(1 for l in expected if l in got)}/"
                  f"{len(expected)}")
    print(f"\n{pages_read} pages: CER median {statistics.median(cers):.2%} (mean {statistics.mean(cers):.2%}, "
          f"max {max(cers):.2%}); WER median {statistics.median(wers):.2%} (mean {statistics.mean(wers):.2%}); "
          f"Pasal headings recovered {found}/{headings} ({found / max(1, headings):.1%}); "
          f"{pages_read / seconds:.2f} pages/s ({seconds / pages_read:.1f} s a page at {args.dpi} dpi, one process)")


def hard(args) -> None:
    for path in sorted((CORPUS / "hard").glob("*.pdf")):
        started = time.perf_counter()
        extracted = extract_file(path, OcrOptions(dpi=args.dpi, languages=args.languages))
        elapsed = time.perf_counter() - started
        parsed = parse_document(extracted, max_chars=1500, min_chars=200, title_hint=path.stem)
        pasal = [chunk for chunk in parsed.chunks if any(part.startswith("Pasal ") for part in chunk.section_path)]
        confidences = [confidence for _, confidence in extracted.ocr_pages]
        print(f"\n{path.name}: {extracted.extraction}, {len(confidences)} pages by OCR in {elapsed:.0f} s, mean "
              f"confidence {statistics.mean(confidences):.1f}; {len(parsed.chunks)} chunks, {len(pasal)} in a Pasal; "
              f"identity {parsed.identity.instrument_type} {parsed.identity.number}/{parsed.identity.year}")
        for chunk in pasal[:4]:
            print(f"  page {chunk.page_number}: {' > '.join(chunk.section_path)}: {' '.join(chunk.text.split())[:110]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=12)
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--languages", default=OcrOptions.languages, help="Tesseract models, e.g. ind+eng or eng")
    parser.add_argument("--hard", action="store_true", help="also ingest the hard PDFs through OCR and the parser")
    args = parser.parse_args()
    if reason := ocr_unavailable(args.languages):
        print(reason)
        return 1
    against_text_layer(args)
    if args.hard:
        hard(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
