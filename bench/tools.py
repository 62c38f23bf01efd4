"""Live-data tool figures: workbook ingest and compute on a 1-million-row sheet; CKAN answers cold vs warm.

- Ingest: a 1,000,000-row CSV (DuckDB's reader → Parquet) and an .xlsx of
  ``--xlsx-rows`` rows (python-calamine → Arrow → Parquet); seconds and rows/s.
- Compute on the 1M-row sheet: p50/p95 of workbook_compute (grouped sum with a
  filter, ungrouped average), workbook_rows (two filters) and a whole /query
  figure answer read from that workbook (deterministic path).
- CKAN: a figure question answered from a loopback CKAN portal (Action API
  shapes; ``--portal-delay`` seconds added per request to stand for a remote
  portal), the TTL cache cleared before every question (cold) and kept (warm).

Run: .venv/bin/python bench/tools.py [--rows 1000000] [--xlsx-rows 100000] [--runs 30]
"""
from __future__ import annotations

import argparse
import csv
import io
import random
import time

from _setup import ROOT, django_setup, percentile, summary

KEY = "bench-tools-key"
PLACES = ["Banda Aceh", "Sabang", "Aceh Besar", "Pidie", "Pidie Jaya", "Bireuen", "Aceh Utara", "Lhokseumawe",
          "Aceh Timur", "Langsa", "Aceh Tamiang", "Aceh Tengah", "Bener Meriah", "Gayo Lues", "Aceh Tenggara",
          "Aceh Selatan", "Subulussalam", "Aceh Singkil", "Aceh Barat", "Aceh Barat Daya", "Nagan Raya", "Aceh Jaya",
          "Simeulue"]


def sheet_rows(count: int, seed: int = 7):
    rng = random.Random(seed)
    yield ["Kabupaten/Kota", "Tahun", "Bulan", "Jumlah Kunjungan", "Nilai Transaksi"]
    for _ in range(count):
        yield [rng.choice(PLACES), rng.randint(2015, 2024), rng.randint(1, 12), rng.randint(0, 5000),
               round(rng.uniform(0, 1e6), 2)]


def csv_data(count: int) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(sheet_rows(count))
    return buffer.getvalue().encode()


def xlsx_data(count: int) -> bytes:
    import openpyxl
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("Kunjungan")
    for row in sheet_rows(count):
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def timed(work, runs: int) -> list[float]:
    values = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        values.append((time.perf_counter() - started) * 1000)
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--xlsx-rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--portal-delay", type=float, default=0.05)
    args = parser.parse_args()
    django_setup(data_dir="var/bench-tools", ACEH_RAG_API__KEYS=KEY, ACEH_RAG_EMBEDDING__BACKEND="hashing")
    import sys
    sys.path.insert(0, str(ROOT))
    from django.core.cache import cache
    from django.test import Client

    from livedata.models import Workbook
    from livedata.workbooks.tools import workbook_tool_run
    from retrieval.ingestion import IngestOptions, document_ingest_bytes
    from retrieval.models import Document
    from retrieval.services import chunk_statistics_refresh
    from tests.factories import make_document
    from tests.livedata.helpers import live_settings
    from tests.livedata.portals import FakePortal, ckan_handler

    Document.objects.all().delete()
    make_document(title="Qanun Aceh tentang Statistik Daerah", chunks=[
        "Perangkat daerah menyampaikan data kunjungan dan persentase penduduk miskin kepada Bappeda setiap tahun."])
    chunk_statistics_refresh()

    def ingest(data: bytes, name: str):
        started = time.perf_counter()
        outcome = document_ingest_bytes(data=data, filename=name, source_key=f"bench:{name}",
                                        options=IngestOptions(collection_id="SatuData"))
        assert outcome.status == "ingested", outcome
        return Workbook.objects.get(document_id=outcome.document_id), time.perf_counter() - started

    data = csv_data(args.rows)
    big, seconds = ingest(data, "kunjungan_2024.csv")
    print(f"ingest CSV {args.rows:,} rows ({len(data) / 1e6:.1f} MB): {seconds:.2f} s ({args.rows / seconds:,.0f} rows/s)")
    xlsx = xlsx_data(args.xlsx_rows)
    small, seconds = ingest(xlsx, "kunjungan_xlsx_2024.xlsx")
    small.document.delete()  # the figure question below must read the 1M-row sheet
    print(f"ingest XLSX {args.xlsx_rows:,} rows ({len(xlsx) / 1e6:.1f} MB): {seconds:.2f} s "
          f"({args.xlsx_rows / seconds:,.0f} rows/s)")

    grouped = {"aggregate": "sum", "column": "Jumlah Kunjungan", "group_by": ["Kabupaten/Kota"],
               "filter": [{"column": "Tahun", "value": 2023}]}
    average = {"aggregate": "avg", "column": "Nilai Transaksi"}
    rows = {"filter": [{"column": "Kabupaten/Kota", "value": "Pidie"}, {"column": "Tahun", "value": 2020}]}
    for label, tool, arguments in (("compute sum by place, one year", "workbook_compute", grouped),
                                   ("compute avg, whole sheet", "workbook_compute", average),
                                   ("rows, two filters (50 max)", "workbook_rows", rows)):
        workbook_tool_run(tool, big, arguments)  # warm the file cache once
        print(f"{label:32s} on {big.row_count:,} rows: {summary(timed(lambda: workbook_tool_run(tool, big, arguments), args.runs))}")

    client = Client(HTTP_X_API_KEY=KEY)

    def ask(question: str) -> dict:
        response = client.post("/query", data={"query": question}, content_type="application/json")
        assert response.status_code == 200, response.content
        return response.json()

    question = "Berapa total jumlah kunjungan Pidie tahun 2023?"
    with live_settings(workbooks=False):
        assert all(c["kind"] == "chunk" for c in ask(question)["citations"])
        baseline = timed(lambda: ask(question), args.runs // 2)
    with live_settings():
        assert any(c["kind"] == "tool" for c in ask(question)["citations"])
        figure = timed(lambda: ask(question), args.runs // 2)
    print(f"{'/query, tools off (documents)':32s}: {summary(baseline)}")
    print(f"{'/query figure from the 1M-row sheet':32s}: {summary(figure)}")
    print(f"figure/documents p95 ratio: {percentile(figure, 0.95) / percentile(baseline, 0.95):.2f}")

    Document.objects.filter(source_key__startswith="bench:").delete()
    question = "Berapa persentase penduduk miskin Pidie tahun 2024?"
    with FakePortal(ckan_handler, delay=args.portal_delay) as portal, live_settings(portals=(portal.url,)):
        def cold():
            cache.clear()
            return ask(question)
        assert any(c["kind"] == "tool" for c in cold()["citations"])
        cold_ms = timed(cold, args.runs // 2)
        warm_ms = timed(lambda: ask(question), args.runs // 2)
    print(f"CKAN question, cache cold (+{args.portal_delay * 1000:.0f} ms/request portal): {summary(cold_ms)}")
    print(f"CKAN question, cache warm                     : {summary(warm_ms)}")
    print(f"warm/cold p50 ratio: {percentile(warm_ms, 0.5) / percentile(cold_ms, 0.5):.2f}")
    Document.objects.all().delete()


if __name__ == "__main__":
    main()
