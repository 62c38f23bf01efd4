"""The eval_retrieval command: per-kind figures, misses, JSON, the stages-off baseline and its errors."""
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import make_document

pytestmark = pytest.mark.slow


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


@pytest.mark.django_db
def test_per_style_table_and_twin_pairs_summary(tmp_path):
    make_document(title="Qanun Zakat", chunks=["Zakat profesi dibayar setiap bulan kepada Baitul Mal.", "Infak bersifat sukarela."])
    zakat, infak = [{"document": "Qanun Zakat", "pasal": "1"}], [{"document": "Qanun Zakat", "pasal": "2"}]
    questions = _write(tmp_path, [
        # Twin group 1: only the formal wording shares words with the text.
        {"id": "t1-f", "twin": "t1", "query": "kapan zakat profesi dibayar", "style": ["formal"], "relevant": zakat},
        {"id": "t1-c", "twin": "t1", "query": "kapan setor duit ke lembaga amal", "style": ["colloquial"], "relevant": zakat},
        {"id": "t1-e", "twin": "t1", "query": "how often is the vocational contribution handed over", "style": ["english"], "relevant": zakat},
        # Twin group 2: every wording names infak.
        {"id": "t2-f", "twin": "t2", "query": "apakah infak bersifat sukarela", "style": ["formal"], "relevant": infak},
        {"id": "t2-c", "twin": "t2", "query": "infak itu wajib gak", "style": ["colloquial"], "relevant": infak},
        {"id": "t2-e", "twin": "t2", "query": "is infak voluntary", "style": ["english"], "relevant": infak},
        # Not a twin: counts per style (formal and a tag outside the three), not among the twins.
        {"id": "x1", "query": "kapan zakat profesi dibayar", "style": ["formal", "figure"], "relevant": [{"document": "Qanun Lain"}]},
        {"query": "infak", "kind": "plain", "relevant": infak},
    ])
    out = io.StringIO()
    call_command("eval_retrieval", str(questions), "--modes", "lexical", "--no-bm25",
                 "--json", str(tmp_path / "r.json"), stdout=out)
    text = out.getvalue()
    per_style = {row[0]: row for row in (line.split() for line in
                 text.split("per style\n")[1].split("\n\n")[0].splitlines()[2:])}
    assert set(per_style) == {"formal", "colloquial", "english"}
    assert per_style["formal"][3] == "0.667" and per_style["formal"][-1] == "3"   # the non-twin formal row misses
    assert per_style["colloquial"][3] == "0.500" and per_style["english"][-1] == "2"
    assert "twin pairs (2 groups;" in text
    twins = {row[0]: row for row in (line.split() for line in text.split("twin pairs")[1].splitlines()[3:]) if row}
    assert twins["formal"][2:5] == ["1.000", "1.000", "2"]
    assert twins["colloquial"][2] == "0.500" and twins["colloquial"][5:] == ["-0.500", "1"]
    assert twins["english"][5:] == ["-0.500", "1"]
    report = json.loads((tmp_path / "r.json").read_text())
    assert [(row["style"], row["questions"]) for row in report["per_style"]] == [("formal", 3), ("colloquial", 2), ("english", 2)]
    lexical = report["twins"]["modes"][0]
    assert report["twins"]["groups"] == 2 and lexical["mode"] == "lexical"
    assert lexical["styles"]["formal"] == {"questions": 2, "recall@5": 1.0, "mrr@10": 1.0}
    assert lexical["gap_recall@5"] == {"colloquial": -0.5, "english": -0.5} and lexical["lost"] == {"colloquial": 1, "english": 1}
    assert report["questions"][0]["twin"] == "t1" and report["questions"][6]["styles"] == ["formal", "figure"]


@pytest.mark.django_db
def test_a_set_without_styles_or_twins_prints_neither(tmp_path):
    make_document(title="Qanun Zakat", chunks=["Zakat profesi dibayar setiap bulan kepada Baitul Mal."])
    questions = _write(tmp_path, [{"query": "zakat profesi", "relevant": [{"document": "Qanun Zakat"}]}])
    out = io.StringIO()
    call_command("eval_retrieval", str(questions), "--modes", "lexical", "--no-bm25", "--json", str(tmp_path / "r.json"),
                 stdout=out)
    assert "per style" not in out.getvalue() and "twin pairs" not in out.getvalue()
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["per_style"] == [] and report["twins"] is None
