"""corpus_facts (query-search-api "Named regulations"): signatory role groups and roster coverage, on a real server."""
from __future__ import annotations

import json

import httpx
import pytest

from retrieval.roster import signatory_role
from tests.answering.scripted_model import ScriptedModel, completion, tool_call
from tests.conftest import TEST_API_KEY, corpus_path
from tests.factories import make_document
from tests.http_fakes import FakeModelServer

PERGUB_5_2025 = "txt/pergub-aceh-5-2025-dasar-pengenaan-pajak-alat-berat-pembuatan-sebelum-tahun-2024.txt"


def pergub(number: int, subject: str, signature: str) -> object:
    return make_document(text=(
        f"GUBERNUR ACEH\n\nPERATURAN GUBERNUR ACEH\nNOMOR {number} TAHUN 2025\n\nTENTANG\n\n{subject}\n\n"
        "GUBERNUR ACEH,\n\nMenimbang : bahwa perlu diatur.\n\nPasal 1\nKetentuan umum tentang "
        f"{subject.lower()}.\n\nPasal 2\nPeraturan Gubernur ini mulai berlaku pada tanggal diundangkan.\n\n{signature}"))


SIGNED = "Ditetapkan di Banda Aceh\npada tanggal 2 Mei 2025\n\nGUBERNUR ACEH,\n\nttd\n\nMUZAKIR MANAF\n"


def test_the_role_above_the_name_is_kept():
    assert signatory_role("Ditetapkan di Banda Aceh\n\nPj. GUBERNUR ACEH\n\nSAFRIZAL ZA\n", "SAFRIZAL ZA") == "Pj. Gubernur Aceh"
    assert signatory_role(SIGNED, "MUZAKIR MANAF") == "Gubernur Aceh"
    assert signatory_role("Ditetapkan di Banda Aceh\n\nMUZAKIR MANAF", "MUZAKIR MANAF") is None


@pytest.mark.django_db(transaction=True)
def test_signatory_requests_group_by_role_and_report_roster_coverage(live_server_factory):
    path = corpus_path(PERGUB_5_2025)
    caretaker = make_document(text=path.read_text(), filename=path.name)
    first, second = pergub(20, "PERJALANAN DINAS", SIGNED), pergub(21, "TUNJANGAN KINERJA", SIGNED)
    unsigned = pergub(22, "NAMA JALAN", "")
    assert (caretaker.signatory, first.signatory, unsigned.signatory) == ("SAFRIZAL ZA", "MUZAKIR MANAF", None)
    calls = [
        ("call_1", {"instrument_type": "Pergub Aceh", "year": "2025", "group_by": "signer"}),
        ("call_2", {"instrument_type": "Peraturan Gubernur Aceh", "operation": "compare_signatories"}),
        ("call_3", {"title_contains": "nama jalan", "group_by": "signatory"}),
        ("call_4", {"instrument_type": "pergub aceh", "year": 2025}),
    ]

    def agent(body):
        if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
            return completion(None, finish="tool_calls", tool_calls=[tool_call("corpus_facts", args, cid) for cid, args in calls])
        return completion("Ada beberapa penandatangan.")

    model = ScriptedModel(agent=agent)
    with FakeModelServer(model) as fake:
        server = live_server_factory(ACEH_RAG_LLM__BASE_URL=fake.url, ACEH_RAG_LLM__MODEL="scripted")
        response = httpx.post(server.url + "/query", json={"query": "Siapa saja yang menandatangani Pergub Aceh 2025?"},
                              headers={"X-API-Key": TEST_API_KEY}, timeout=60)
    assert response.status_code == 200
    offered = next(t for t in model.bodies("agent")[0]["tools"] if t["function"]["name"] == "corpus_facts")
    assert offered["function"]["parameters"]["properties"]["group_by"]["enum"] == ["instrument_type", "year", "signatory"]
    results = {m["tool_call_id"]: m["content"] for m in model.bodies("agent")[-1]["messages"] if m["role"] == "tool"}
    facts = {cid: json.loads(text[text.index("{"):]) for cid, text in results.items()}
    coverage = {"documents": 4, "documents_with_promulgation_card": 3, "documents_with_readable_officer_names": 3}
    assert facts["call_1"] == {"documents": 4, "groups": [
        {"signatory_role": "Gubernur Aceh", "signatory": "MUZAKIR MANAF", "count": 2, "lower_bound": True},
        {"signatory_role": "Pj. Gubernur Aceh", "signatory": "SAFRIZAL ZA", "count": 1, "lower_bound": True},
    ], "roster": {"status": "partial", "lower_bound": True, **coverage}}
    assert results["call_1"].startswith("Indexed documents you may read (exact count); signatory counts are lower bounds")
    # compare: the same role-preserving groups, each naming its documents.
    assert [(g["signatory_role"], g["count"], g["titles"]) for g in facts["call_2"]["groups"]] == [
        ("Gubernur Aceh", 2, sorted([first.title, second.title])), ("Pj. Gubernur Aceh", 1, [caretaker.title])]
    assert facts["call_3"] == {"documents": 1, "groups": [], "roster": {
        "status": "unavailable", "lower_bound": False, "documents": 1, "documents_with_promulgation_card": 0,
        "documents_with_readable_officer_names": 0}}
    assert "the signatory roster is unavailable" in results["call_3"]
    # An ordinary count stays exact and needs no card; "pergub aceh" is read as Peraturan Gubernur Aceh.
    assert facts["call_4"] == {"documents": 4}
