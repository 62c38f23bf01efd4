"""Staff commands without traps: a mistyped collection is refused, every accepted format is named, identities
print once, evaluation output is the figures (progress on stderr, no library chatter), missing gold named."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command, load_command_class

from retrieval.instruments import number_and_year
from retrieval.models import Collection, Document
from tests.factories import make_document
from tests.retrieval.test_staff_commands import QANUN

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
# Lines a library prints on its own (logged through the project's handler, or warnings).
NOISE = ("matplotlib", "numba", "kombu", "No hostname was supplied", "Warning", "fontManager")


def test_ingest_refuses_an_unknown_collection_and_names_the_known_ones(tmp_path):
    for known in ("JDIH", "PPID"):
        Collection.objects.get_or_create(id=known)
    (tmp_path / "qanun.txt").write_text(QANUN)
    # Given JDIH and PPID, when staff type JDHI, nothing is created and the known ones are listed.
    with pytest.raises(CommandError) as refused:
        call_command("ingest", str(tmp_path), "--collection", "JDHI", stdout=io.StringIO(), stderr=io.StringIO())
    message = str(refused.value)
    assert "unknown collection 'JDHI'" in message
    known = message.split("(known: ", 1)[1].split(")", 1)[0].split(", ")
    assert {"JDIH", "PPID"} <= set(known) and known == sorted(known)
    assert "--create-collection" in str(refused.value)
    assert not Collection.objects.filter(id="JDHI").exists() and not Document.objects.filter(collection_id="JDHI").exists()
    # With --create-collection the new collection is made and the file ingested.
    call_command("ingest", str(tmp_path), "--collection", "JDHI", "--create-collection", stdout=io.StringIO(),
                 stderr=io.StringIO())
    assert Document.objects.filter(collection_id="JDHI").count() == 1


def test_ingest_help_and_the_unsupported_message_name_every_accepted_format(tmp_path):
    help_text = load_command_class("retrieval", "ingest").create_parser("manage.py", "ingest").format_help()
    for extension in (".pdf", ".txt", ".md", ".html", ".docx", ".csv", ".xlsx"):
        assert extension in help_text, extension
    Collection.objects.get_or_create(id="JDIH")
    (tmp_path / "slides.pptx").write_bytes(b"not a document")
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("ingest", str(tmp_path), "--collection", "JDIH", stdout=out, stderr=io.StringIO())
    failure = next(line for line in out.getvalue().splitlines() if line.startswith("FAILED"))
    assert ".csv" in failure and ".xlsx" in failure


def test_identities_print_the_year_once():
    assert number_and_year("03/INSTR/2025", 2025) == "03/INSTR/2025"
    assert number_and_year("24", 2025) == "24/2025"
    assert number_and_year(None, 2025) == "?/2025"
    assert number_and_year(None, None) == ""


def test_create_api_key_says_the_key_is_shown_once():
    out, err = io.StringIO(), io.StringIO()
    call_command("create_api_key", "bappeda-portal", stdout=out, stderr=err)
    assert out.getvalue().strip().startswith("acr_") and len(out.getvalue().split()) == 1
    assert "shown only this once" in err.getvalue()


@pytest.fixture
def committed_document(django_db_blocker, transactional_db):
    document = make_document(title="Qanun Aceh Nomor 91 Tahun 2024 tentang Transparansi Anggaran",
                             chunks=["Pemerintah Aceh mengumumkan ringkasan anggaran setiap tahun.",
                                     "Ringkasan anggaran dimuat paling lambat 30 hari setelah penetapan."])
    return document


def test_eval_retrieval_prints_figures_progress_and_a_missing_gold_warning_without_library_noise(
        committed_document, tmp_path):
    from tests.conftest import server_env

    questions = tmp_path / "questions.jsonl"
    questions.write_text("\n".join(json.dumps(row) for row in [
        {"query": "kapan ringkasan anggaran dimuat", "kind": "topic",
         "relevant": [{"document": "Qanun Aceh Nomor 91 Tahun 2024", "pasal": "2"}]},
        {"query": "qanun zakat", "kind": "topic", "relevant": [{"document": "Qanun Aceh Nomor 10 Tahun 2018"}]},
    ]) + "\n")
    # A home without caches: what a fresh machine (or a container) gives the libraries.
    env = {**server_env(), "HOME": str(tmp_path / "home"), "ACEH_RAG_LOG_LEVEL": "INFO"}
    env.pop("MPLCONFIGDIR", None)
    run = subprocess.run([sys.executable, "manage.py", "eval_retrieval", str(questions), "--modes", "lexical"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "2 questions from" in run.stdout and "lexical" in run.stdout
    stderr = [line for line in run.stderr.splitlines() if "embedded PostgreSQL ready" not in line]
    assert any(line.startswith("[") and "searches]" in line for line in stderr), stderr
    warning = [line for line in stderr if line.startswith("warning:")]
    assert warning and "Qanun Aceh Nomor 10 Tahun 2018" in warning[0] and "Nomor 91" not in warning[0]
    noise = [line for line in stderr if any(word in line for word in NOISE)]
    assert not noise, noise


def test_eval_answers_is_quiet_and_shows_progress(committed_document, tmp_path):
    from tests.conftest import server_env

    questions = tmp_path / "answers.jsonl"
    questions.write_text(json.dumps({"id": "t01", "kind": "date", "question": "Kapan ringkasan anggaran dimuat?",
                                     "source": "qanun", "pasal": "2", "evidence": "paling lambat 30 hari"}) + "\n")
    env = {**server_env(), "HOME": str(tmp_path / "home"), "ACEH_RAG_LOG_LEVEL": "INFO"}
    run = subprocess.run([sys.executable, "manage.py", "eval_answers", str(questions)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "1 questions from" in run.stdout
    stderr = [line for line in run.stderr.splitlines() if "embedded PostgreSQL ready" not in line]
    assert any(line.startswith("[1/1 questions]") for line in stderr), stderr
    noise = [line for line in stderr if any(word in line for word in NOISE)]
    assert not noise, noise


def test_eval_answers_warns_like_eval_retrieval_when_gold_documents_are_not_indexed(tmp_path):
    make_document(title="Qanun Aceh Nomor 91 Tahun 2024 tentang Transparansi Anggaran",
                  chunks=["Ringkasan anggaran dimuat paling lambat 30 hari setelah penetapan."])
    questions = tmp_path / "answers.jsonl"
    questions.write_text("\n".join(json.dumps(row) for row in [
        {"id": "t01", "question": "Kapan ringkasan anggaran dimuat?", "source": "Qanun Aceh Nomor 91 Tahun 2024",
         "pasal": "2", "evidence": "paling lambat 30 hari"},
        {"id": "t02", "question": "Berapa zakat profesi?", "source": "Qanun Aceh Nomor 10 Tahun 2018",
         "evidence": "dua setengah persen"},
        {"id": "t03", "question": "Siapa juara piala dunia?", "reason": "off-topic"},
    ]) + "\n")
    err = io.StringIO()
    call_command("eval_answers", str(questions), stdout=io.StringIO(), stderr=err)
    warning = [line for line in err.getvalue().splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "1 labelled document(s)" in warning[0]
    assert "Qanun Aceh Nomor 10 Tahun 2018" in warning[0] and "Nomor 91" not in warning[0]
