"""fit_retrieval: coordinate ascent on the training part, validation measured with the fitted values, frozen JSON."""
import io
import json

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from kernel.config.retrieval import FITTED, RETRIEVAL_FIT_PATH, RetrievalSettings
from retrieval.fusion_fit import GRID
from tests.factories import make_document


def _questions(tmp_path, rows):
    path = tmp_path / "questions.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    return path


def _row(row_id, query, document, pasal):
    return {"id": row_id, "query": query, "kind": "aceh", "relevant": [{"document": document, "pasal": pasal}]}


@pytest.mark.django_db
def test_fit_prints_both_parts_and_writes_values_from_the_grid(tmp_path):
    make_document(title="Qanun Zakat", chunks=["Zakat profesi dibayar setiap bulan kepada Baitul Mal.",
                                               "Infak bersifat sukarela dan tidak wajib."])
    make_document(title="Qanun Pendidikan", chunks=["Sekolah dasar wajib bagi anak usia tujuh tahun.",
                                                    "Guru dayah mendapat insentif dari pemerintah Aceh."])
    # t0, t1, t5 fall in the training part and t2, t3 in the validation part (retrieval.quality.split_of).
    path = _questions(tmp_path, [
        _row("t0", "kapan zakat profesi dibayar", "Qanun Zakat", "1"),
        _row("t1", "apakah infak wajib", "Qanun Zakat", "2"),
        _row("t5", "insentif guru dayah", "Qanun Pendidikan", "2"),
        _row("t2", "umur masuk sekolah dasar", "Qanun Pendidikan", "1"),
        _row("t3", "zakat dibayar kepada siapa", "Qanun Zakat", "1"),
    ])
    out = io.StringIO()
    written = tmp_path / "fit.json"
    call_command("fit_retrieval", str(path), "--write", "--output", str(written), stdout=out)
    text = out.getvalue()
    table = {line.split()[0]: [float(v) for v in line.split()[1:6]] for line in text.splitlines()
             if line.startswith(("train-", "valid-"))}
    assert set(table) == {"train-before", "train-after", "valid-before", "valid-after"}
    # Coordinate ascent never ends below where it started on the part it searched.
    before, after = table["train-before"], table["train-after"]
    assert (after[1] + after[3]) / 2 >= (before[1] + before[3]) / 2
    frozen = json.loads(written.read_text())
    assert set(frozen["values"]) == set(GRID)
    assert all(value in GRID[name] or value == FITTED[name] for name, value in frozen["values"].items())
    assert frozen["train (fit figure)"]["questions"] == 3 and frozen["validation"]["questions"] == 2
    assert frozen["validation"]["recall@5"] == pytest.approx(table["valid-after"][1], abs=1e-3)


@pytest.mark.django_db
def test_fit_needs_a_training_part(tmp_path):
    make_document(title="Qanun Zakat", chunks=["Zakat profesi."])
    path = _questions(tmp_path, [_row("t2", "zakat", "Qanun Zakat", "1")])
    with pytest.raises(CommandError, match="no training questions"):
        call_command("fit_retrieval", str(path), stdout=io.StringIO())


def test_the_settings_defaults_are_the_frozen_fit():
    frozen = json.loads(RETRIEVAL_FIT_PATH.read_text())["values"]
    defaults = RetrievalSettings()
    assert {name: getattr(defaults, name) for name in frozen} == frozen
    assert settings.ACEH_RAG.retrieval.rrf_k == frozen["rrf_k"]
