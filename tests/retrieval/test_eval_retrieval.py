"""The eval_retrieval command: per-kind figures, misses, JSON, the stages-off baseline and its errors."""
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import make_document


def _write(tmp_path, rows):
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    return path


@pytest.mark.django_db
def test_per_kind_figures_misses_json_and_baseline(tmp_path):
    make_document(title="Qanun Zakat", chunks=["Zakat profesi dibayar setiap bulan kepada Baitul Mal.", "Infak bersifat sukarela."])
    questions = _write(tmp_path, [
        {"query": "kapan zakat profesi dibayar", "kind": "figures", "relevant": [{"document": "Qanun Zakat", "pasal": "1"}]},
        {"query": "infak itu wajib gak", "kind": "colloquial", "relevant": [{"document": "Qanun Zakat", "pasal": "2"}]},
        {"query": "kapan zakat profesi dibayar", "kind": "figures", "relevant": [{"document": "Qanun Lain"}]},
    ])
    out = io.StringIO()
    call_command("eval_retrieval", str(questions), "--modes", "hybrid,lexical", "--baseline", "--misses",
                 "--json", str(tmp_path / "r.json"), stdout=out)
    text = out.getvalue()
    overall = {line.split()[0]: line.split()[1:] for line in text.split("\n\n")[0].splitlines()[3:]}
    assert set(overall) == {"hybrid", "hybrid-base", "lexical", "lexical-base", "bm25"}
    per_kind = [line.split() for line in text.split("per kind\n")[1].split("\n\n")[0].splitlines()[2:]]
    assert {(row[0], row[1]) for row in per_kind} >= {("figures", "hybrid"), ("colloquial", "lexical-base")}
    figures_lexical = next(row for row in per_kind if row[:2] == ["figures", "lexical"])
    assert figures_lexical[3] == "0.500" and figures_lexical[-1] == "2"   # one of two found in the top 5
    assert "misses of hybrid (not in top 5): 1" in text and "wanted Qanun Lain" in text
    report = json.loads((tmp_path / "r.json").read_text())
    assert {row["mode"] for row in report["figures"]} == set(overall)
    assert report["questions"][2]["first_rank"]["hybrid"] is None
    assert report["questions"][0]["first_rank"]["lexical"] == 1


@pytest.mark.django_db
def test_an_empty_or_unknown_collection_is_a_clear_error(tmp_path):
    questions = _write(tmp_path, [{"query": "zakat", "relevant": [{"document": "Qanun Zakat"}]}])
    with pytest.raises(CommandError, match="no indexed chunks in the database"):
        call_command("eval_retrieval", str(questions), stdout=io.StringIO())
    make_document(title="Qanun Zakat", chunks=["Zakat profesi."])
    with pytest.raises(CommandError, match="no indexed chunks in collection\\(s\\) NOPE"):
        call_command("eval_retrieval", str(questions), "--collection", "NOPE", stdout=io.StringIO())
    with pytest.raises(CommandError, match="no questions"):
        call_command("eval_retrieval", str(_write(tmp_path, [])), stdout=io.StringIO())
