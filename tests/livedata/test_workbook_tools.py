"""The workbook tools: bounded reads, checked arguments, citations only on success."""
from __future__ import annotations

from dataclasses import replace

import pytest
from django.conf import settings
from django.test import override_settings

from livedata.models import Workbook
from livedata.workbooks.tools import workbook_tool_run
from tests.livedata.files import POPULATION, SPENDING, csv_bytes, ods_bytes
from tests.livedata.helpers import ingest_workbook

pytestmark = pytest.mark.django_db


@pytest.fixture
def workbook():
    document_id = ingest_workbook(ods_bytes({"Penduduk": POPULATION, "Belanja": SPENDING}), "Statistik Aceh 2023.ods",
                                  collection_name="SatuData Aceh")
    return Workbook.objects.get(document_id=document_id)


def test_describe_lists_sheets_columns_types_and_counts(workbook):
    read = workbook_tool_run("workbook_describe", workbook, {})
    assert read.ok
    assert "sheet Penduduk: 5 rows; columns Kabupaten/Kota (VARCHAR), Tahun (BIGINT), Jumlah Penduduk (BIGINT)" in read.text
    assert "sheet Belanja: 4 rows" in read.text
    citation = read.citation("call_7")
    assert (citation["source_title"], citation["source_name"], citation["period"], citation["source_url"]) == (
        "Statistik Aceh 2023", "SatuData Aceh", "2023", None)
    assert citation["source_id"] == f"spreadsheet:{workbook.document_id}" and citation["call"] == "call_7"


def test_rows_filter_with_operators_and_text_ignoring_case(workbook):
    read = workbook_tool_run("workbook_rows", workbook, {"sheet": "penduduk", "filter": [
        {"column": "kabupaten/kota", "op": "=", "value": "banda aceh"}, {"column": "Tahun", "op": ">=", "value": 2023}]})
    assert read.rows == 1 and "Jumlah Penduduk: 261969" in read.text
    contains = workbook_tool_run("workbook_rows", workbook, {"filter": [{"column": "Kabupaten/Kota", "op": "contains",
                                                                         "value": "aceh"}], "columns": ["Tahun"]})
    assert contains.rows == 4 and "Jumlah" not in contains.text.split("\n", 1)[1]


def test_compute_aggregates_groups_and_filters(workbook):
    read = workbook_tool_run("workbook_compute", workbook, {"sheet": "Belanja", "aggregate": "sum",
                                                            "column": "Realisasi", "group_by": ["SKPA"]})
    assert read.text.splitlines()[1:] == ["SKPA: Dinas Pendidikan | sum Realisasi: 430.75",
                                          "SKPA: Dinas Kesehatan | sum Realisasi: 175.5"]
    count = workbook_tool_run("workbook_compute", workbook, {"aggregate": "count", "filter": [
        {"column": "Tahun", "value": 2022}]})
    assert count.text.splitlines()[1] == "Tahun: 2022 | count: 2"


def test_output_is_bounded():
    rows = [["nomor", "nilai"], *([i, i * 2] for i in range(500))]
    workbook = Workbook.objects.get(document_id=ingest_workbook(csv_bytes(rows), "besar.csv"))
    config = settings.ACEH_RAG
    with override_settings(ACEH_RAG=replace(config, livedata=replace(
            config.livedata, workbooks=replace(config.livedata.workbooks, max_rows=10)))):
        read = workbook_tool_run("workbook_rows", workbook, {"limit": 1000})
        groups = workbook_tool_run("workbook_compute", workbook, {"aggregate": "sum", "column": "nilai",
                                                                  "group_by": "nomor"})
    assert read.rows == 10 and "(first 10; more match)" in read.text
    assert groups.rows == 10 and "(10 groups, the largest 10)" in groups.text
    assert groups.text.splitlines()[1] == "nomor: 499 | sum nilai: 998"


@pytest.mark.parametrize("tool,arguments,message", [
    ("workbook_rows", {"sheet": "Tidak Ada"}, "no sheet named"),
    ("workbook_rows", {"filter": [{"column": "umur", "value": 3}]}, "no column named 'umur'"),
    ("workbook_rows", {"filter": [{"column": "Tahun", "op": "LIKE", "value": 3}]}, "unknown operator"),
    ("workbook_rows", {"filter": [{"column": "Tahun", "value": "dua ribu"}]}, "holds numbers"),
    ("workbook_compute", {"aggregate": "sum", "column": "Kabupaten/Kota"}, "is not numeric"),
    ("workbook_compute", {"aggregate": "drop table", "column": "Tahun"}, "aggregate must be one of"),
    ("workbook_rows", {"filter": [{"column": "Tahun", "value": 1999}]}, "no rows"),
])
def test_errors_and_misses_carry_no_workbook_metadata(workbook, tool, arguments, message):
    read = workbook_tool_run(tool, workbook, arguments)
    assert read.ok is False and message in read.text
    assert read.source is None and not read.grounds


def test_an_unknown_or_invisible_workbook_is_a_miss():
    read = workbook_tool_run("workbook_peek", None, {})
    assert read.ok is False and read.source is None and "no catalogued workbook" in read.text
