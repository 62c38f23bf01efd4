"""Parse + chunk timing for retrieval.parsing (target: < 1 s per document).

Run from the project root:  python bench/parse.py

1. the largest text file in ../shared/corpus/txt (skipped with a note when absent);
2. a synthetic ~1 MB regulation (BAB / Bagian / Pasal / ayat / items / tables /
   Penjelasan), generated deterministically.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from retrieval.parsing import ExtractedText, extract_file, parse_document  # noqa: E402

CORPUS_TXT = ROOT.parent / "shared" / "corpus" / "txt"
TARGET_SECONDS = 1.0

_WORDS = (
    "pemerintah aceh gubernur qanun daerah pelaksanaan kewenangan ketentuan peraturan pengelolaan "
    "keuangan masyarakat pelayanan publik perencanaan pembangunan anggaran pendapatan belanja "
    "pengawasan evaluasi pelaporan kabupaten kota gampong mukim syariat pendidikan kesehatan "
    "lingkungan hidup perizinan berusaha sumber daya alam dan atau yang dengan untuk dalam pada"
).split()
_ORD = ["Kesatu", "Kedua", "Ketiga", "Keempat", "Kelima", "Keenam"]


def _roman(n: int) -> str:
    out = ""
    for value, sym in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                       (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += sym
            n -= value
    return out


def synthetic_regulation(target_chars: int = 1_000_000, seed: int = 7) -> str:
    rng = random.Random(seed)

    def sentence(lo: int = 8, hi: int = 30) -> str:
        words = [rng.choice(_WORDS) for _ in range(rng.randint(lo, hi))]
        return words[0].capitalize() + " " + " ".join(words[1:]) + "."

    parts = [
        "QANUN ACEH\nNOMOR 9 TAHUN 2025\nTENTANG\nPENGELOLAAN KEUANGAN ACEH\n\nBISMILLAHIRRAHMANIRRAHIM\n\n"
        "GUBERNUR ACEH,\n\nMenimbang : a. bahwa " + sentence() + "\nb. bahwa " + sentence() + "\n\n"
        "Mengingat : 1. Undang-Undang Nomor 11 Tahun 2006 tentang Pemerintahan Aceh;\n\n"
        "MEMUTUSKAN:\n\nMenetapkan : QANUN ACEH TENTANG PENGELOLAAN KEUANGAN ACEH.\n"
    ]
    size = len(parts[0])
    pasal = 0
    bab = 0
    body_budget = int(target_chars * 0.8)
    while size < body_budget:
        bab += 1
        block = [f"\nBAB {_roman(bab)}\n{' '.join(rng.choice(_WORDS) for _ in range(3)).upper()}\n"]
        for bagian in range(rng.randint(1, 3)):
            block.append(f"\nBagian {_ORD[bagian]}\n{rng.choice(_WORDS).capitalize()}\n")
            for _ in range(rng.randint(3, 12)):
                pasal += 1
                lines = [f"\nPasal {pasal}"]
                for ayat in range(1, rng.randint(1, 7) + 1):
                    lines.append(f"({ayat}) {sentence(10, 60)}")
                    if rng.random() < 0.3:
                        for k in range(rng.randint(2, 8)):
                            lines.append(f"{chr(97 + k)}. {sentence(5, 25)[:-1]};")
                if rng.random() < 0.05:
                    lines.append("No | Uraian | Jumlah")
                    for row in range(rng.randint(5, 60)):
                        lines.append(f"{row + 1} | {sentence(3, 9)} | {rng.randint(1, 10**6)}")
                block.append("\n".join(lines) + "\n")
        chunk = "".join(block)
        parts.append(chunk)
        size += len(chunk)
    parts.append(
        "\nDitetapkan di Banda Aceh\npada tanggal 25 Juli 2025\n\nGUBERNUR ACEH,\n\nMUZAKIR MANAF\n\n"
        "LEMBARAN ACEH TAHUN 2025 NOMOR 9\n\nPENJELASAN\nATAS\nQANUN ACEH\nNOMOR 9 TAHUN 2025\n\n"
        "I. UMUM\n" + " ".join(sentence() for _ in range(40)) + "\n\nII. PASAL DEMI PASAL\n"
    )
    size = sum(len(p) for p in parts)
    n = 0
    while size < target_chars:
        n += 1
        entry = f"Pasal {n}\n" + ("Cukup jelas.\n" if rng.random() < 0.6 else sentence(20, 80) + "\n")
        parts.append(entry)
        size += len(entry)
    return "".join(parts)


def _time(label: str, extracted: ExtractedText) -> float:
    parse_document(extracted)  # warm-up (regex compilation, imports)
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        doc = parse_document(extracted)
        best = min(best, time.perf_counter() - started)
    status = "OK" if best < TARGET_SECONDS else "SLOW"
    print(f"{label}: {len(extracted.text):,} chars, {len(doc.chunks)} chunks, "
          f"parse+chunk {best * 1000:.0f} ms (best of 3) [{status}]")
    return best


def main() -> int:
    worst = 0.0
    if CORPUS_TXT.is_dir():
        largest = max(CORPUS_TXT.glob("*.txt"), key=lambda p: p.stat().st_size)
        worst = max(worst, _time(f"corpus {largest.name}", extract_file(largest)))
    else:
        print(f"corpus not found at {CORPUS_TXT}; skipping the real-document timing")
    text = synthetic_regulation()
    worst = max(worst, _time("synthetic regulation", ExtractedText(text=text, page_starts=(0,), format="text")))
    return 0 if worst < TARGET_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
