"""/query/v2 and /query/v2/stream against real uvicorn servers, field by field (seed: query-v2).

One server runs the deterministic default; another talks to a scripted
OpenAI-compatible model on loopback whose agent and judge each test scripts.
"""
from __future__ import annotations

import json
import re
import uuid

import httpx
import pytest

from tests.answering.scripted_model import ScriptedModel, completion, shown_passages, tool_call
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer
from tests.sse_client import stream

pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
BUDGET = ("Anggaran pendidikan 2023 adalah Rp 5 miliar. Anggaran pendidikan tahun 2022 adalah Rp 4,6 miliar "
          "dan digunakan untuk rehabilitasi sekolah.")
ZAKAT = "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."
KEPT_V1 = {"answer", "conversation_id", "message_id", "trace_id", "history_truncated", "history_exchanges_in_view",
           "citations", "fallback_used", "fallback_reason", "claims_supported", "claims_total", "grounding_rate", "tool", "tool_executed"}
REMOVED = {"claim_map", "dropped_claims_count", "dropped_claim_reasons", "provenance_complete"}
CLAIM_FIELDS = {"text", "citation_keys", "citations", "verdict", "unverified_reason", "invalid_citation_keys", "kind",
                "layout", "start", "end", "start_utf16", "end_utf16"}
FRAMING_FIELDS = {"text", "layout", "start", "end", "start_utf16", "end_utf16"}
FAITHFULNESS_FIELDS = {"mechanism", "judge_status", "framing_check", "claims_total", "supported", "unsupported",
                       "unverified", "uncited", "invalid_citation", "from_conversation", "unverified_reasons",
                       "framing_total", "unlocated_total", "verification", "grounding"}
SEED_EXAMPLE = [
    {"text": "Berikut datanya.", "kind": "framing", "cites": [], "layout": "paragraph"},
    {"text": "Anggaran pendidikan 2023 adalah Rp 5 miliar.", "kind": "fact", "cites": ["P1"], "layout": "continue"},
    {"text": "Naik 9 persen dari 2022.", "kind": "fact", "cites": ["P1"], "layout": "continue"},
]


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    """Committed documents the server processes can read; removed afterwards."""
    from tests.factories import make_document

    with django_db_blocker.unblock():
        budget = make_document(title="Qanun Anggaran Pendidikan", chunks=[BUDGET])
        zakat = make_document(title="Qanun Baitul Mal", chunks=[ZAKAT])
        secret = make_document(title="Nota Rahasia", chunks=["Anggaran rahasia pendidikan."], confidential=True)
        long = make_document(title="Pedoman Zakat Profesi",
                             chunks=["Zakat profesi dihitung dari penghasilan bersih pegawai setiap bulan. " * 20])
    yield {"budget": str(budget.id), "zakat": str(zakat.id), "secret": str(secret.id), "long": str(long.id)}
    with django_db_blocker.unblock():
        purge_committed_corpus()


@pytest.fixture(scope="module")
def deterministic(live_server_factory, corpus):
    return live_server_factory()


@pytest.fixture(scope="module")
def scripted():
    """The scripted model shared by the module's model-backed server; each test sets its scripts."""
    model = ScriptedModel()
    with FakeModelServer(model) as fake:
        model.url = fake.url
        yield model


@pytest.fixture
def model(scripted):
    scripted.calls.clear()
    scripted.scripts.update(agent=None, judge=None, framing=None, guard=None)
    return scripted


@pytest.fixture(scope="module")
def modelled(live_server_factory, corpus, scripted):
    return live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                               ACEH_RAG_LLM__MAX_RETRIES="0")


def post(server, path="/query/v2", **body):
    return httpx.post(server.url + path, json=body, headers=KEY, timeout=60)


def searching_then(segments_for):
    """An agent that searches once, then answers with ``segments_for(shown_labels)``."""
    def agent(body):
        if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
            return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "anggaran pendidikan"})])
        labels = [label for label, _ in shown_passages(body)]
        return completion(json.dumps({"segments": segments_for(labels)}, ensure_ascii=False))
    return agent


def judge_by(verdict_of):
    """A judge giving ``verdict_of(statement, items_in_call)`` for each item."""
    def judge(body):
        text = body["messages"][-1]["content"]
        items = re.findall(r"^Item (\d+)\nStatement: (.*)$", text, re.M)
        return completion(json.dumps({"verdicts": [
            {"item": int(n), "verdict": verdict_of(statement, len(items))} for n, statement in items]}))
    return judge


def no_framing_checkable(body):
    return completion(json.dumps({"checkable": []}))


def assert_offsets(body):
    answer = body["answer"]
    utf16 = answer.encode("utf-16-le")
    for span in body["claims"] + body["framing"]:
        assert answer[span["start"]:span["end"]] == span["text"]
        assert utf16[2 * span["start_utf16"]:2 * span["end_utf16"]].decode("utf-16-le") == span["text"]


# -- the body, field by field ------------------------------------------------------------------


def test_the_seed_example_is_recomputed_from_its_segments(modelled, model, corpus):
    budget_label = {}

    def segments(labels):
        budget_label["key"] = labels[0]
        return [{**s, "cites": [labels[0]] if s["cites"] else []} for s in SEED_EXAMPLE]

    model.scripts.update(agent=searching_then(segments), framing=no_framing_checkable,
                         judge=judge_by(lambda statement, n: "unsupported" if "Naik 9 persen" in statement else "supported"))
    response = post(modelled, query="Berapa anggaran pendidikan Aceh tahun 2023?", document_ids=[corpus["budget"]])
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-transform"
    body = response.json()
    assert set(body) == KEPT_V1 | {"schema", "claims", "framing", "faithfulness"} and not set(body) & REMOVED
    assert body["schema"] == "annotate-v2"
    assert body["answer"] == "Berikut datanya. Anggaran pendidikan 2023 adalah Rp 5 miliar. Naik 9 persen dari 2022."
    key = budget_label["key"]
    first, second = body["claims"]
    assert set(first) == CLAIM_FIELDS and set(body["framing"][0]) == FRAMING_FIELDS
    assert (first["start"], first["end"], first["start_utf16"], first["end_utf16"]) == (17, 61, 17, 61)
    assert (second["start"], second["end"], second["start_utf16"], second["end_utf16"]) == (62, 86, 62, 86)
    assert (first["verdict"], second["verdict"]) == ("supported", "unsupported")
    assert first["unverified_reason"] is None and first["invalid_citation_keys"] == []
    assert (first["kind"], first["layout"], first["citation_keys"]) == ("fact", "continue", [key])
    assert first["citations"][0]["citation_key"] == key
    assert first["citations"][0]["citation"]["document_id"] == corpus["budget"]
    assert body["framing"] == [{"text": "Berikut datanya.", "layout": "paragraph", "start": 0, "end": 16,
                                "start_utf16": 0, "end_utf16": 16}]
    assert body["faithfulness"] == {
        "mechanism": "annotate-v2", "judge_status": "complete", "framing_check": "complete", "claims_total": 2,
        "supported": 1, "unsupported": 1, "unverified": 0, "uncited": 0, "invalid_citation": 0, "from_conversation": 0,
        "unverified_reasons": {"deadline": 0, "budget": 0, "judge_unavailable": 0, "unparseable": 0, "disputed": 0},
        "framing_total": 1, "unlocated_total": 0, "verification": "partial",
        "grounding": {"claims_supported": 1, "claims_total": 2, "grounding_rate": 0.5},
    }
    assert (body["claims_supported"], body["claims_total"], body["grounding_rate"]) == (1, 2, 0.5)
    assert (body["fallback_used"], body["fallback_reason"]) == (False, None)
    assert [c["document_id"] for c in body["citations"]] == [corpus["budget"]]
    # The rejection was confirmed by a recheck of that segment alone.
    judge_calls = [re.findall(r"^Item \d+$", b["messages"][-1]["content"], re.M) for b in model.bodies("judge")]
    assert [len(items) for items in judge_calls] == [2, 1]


def test_offsets_after_an_emoji_and_a_non_bmp_character_in_utf16(modelled, model, corpus):
    def segments(labels):
        return [{"text": "Halo 👋! Ringkasan 𝔸:", "kind": "framing", "cites": [], "layout": "heading"},
                {"text": "Anggaran pendidikan 2023 adalah Rp 5 miliar.", "kind": "fact", "cites": [labels[0]], "layout": "list_item"},
                {"text": "Tahun | Anggaran", "kind": "framing", "cites": [], "layout": "table_header"},
                {"text": "2023 | Rp 5 miliar", "kind": "fact", "cites": [labels[0]], "layout": "table_row"}]

    model.scripts.update(agent=searching_then(segments), framing=no_framing_checkable,
                         judge=judge_by(lambda statement, n: "supported"))
    body = post(modelled, query="Berapa anggaran pendidikan Aceh tahun 2023?").json()
    assert_offsets(body)
    claim = body["claims"][0]
    # Two characters outside the BMP before it: UTF-16 offsets run two units ahead.
    assert claim["start_utf16"] - claim["start"] == 2 and claim["layout"] == "list_item"
    assert body["answer"].startswith("## Halo 👋! Ringkasan 𝔸:\n\n- Anggaran")
    assert "| Tahun | Anggaran |\n| --- | --- |\n| 2023 | Rp 5 miliar |" in body["answer"]
    assert body["faithfulness"]["verification"] == "full" and not re.search(r"\[P\d+\]", body["answer"])


def test_every_verdict_and_unverified_reason(modelled, model, corpus):
    def segments(labels):
        key = labels[0]
        return [
            {"text": "Anggaran pendidikan 2023 adalah Rp 5 miliar.", "kind": "fact", "cites": [key, "P99"], "layout": "paragraph"},
            {"text": "Anggaran 2022 digunakan untuk membangun jalan tol.", "kind": "fact", "cites": [key], "layout": "continue"},
            {"text": "Anggaran 2022 adalah Rp 4,6 miliar.", "kind": "fact", "cites": [key], "layout": "continue"},
            {"text": "Dana itu naik setiap tahun.", "kind": "fact", "cites": [], "layout": "continue"},
            {"text": "Sekolah dibangun ulang.", "kind": "fact", "cites": ["P98"], "layout": "continue"},
            {"text": "Anda bertanya tentang Aceh.", "kind": "fact", "cites": ["conversation"], "layout": "continue"},
            {"text": "Jumlahnya Rp 9,6 miliar untuk dua tahun.", "kind": "framing", "cites": [], "layout": "paragraph"},
        ]

    def verdict(statement, items):
        if "jalan tol" in statement:
            return "unsupported"                               # confirmed by the recheck
        if "4,6 miliar" in statement:
            return "unsupported" if items > 1 else "supported"  # the recheck disagrees: disputed
        return "supported"

    model.scripts.update(agent=searching_then(segments), judge=judge_by(verdict),
                         framing=lambda body: completion(json.dumps({"checkable": [1]})))
    body = post(modelled, query="Berapa anggaran pendidikan Aceh?").json()
    assert_offsets(body)
    verdicts = {c["text"]: (c["verdict"], c["unverified_reason"], c["invalid_citation_keys"], c["kind"]) for c in body["claims"]}
    assert verdicts == {
        "Anggaran pendidikan 2023 adalah Rp 5 miliar.": ("supported", None, ["P99"], "fact"),
        "Anggaran 2022 digunakan untuk membangun jalan tol.": ("unsupported", None, [], "fact"),
        "Anggaran 2022 adalah Rp 4,6 miliar.": ("unverified", "disputed", [], "fact"),
        "Dana itu naik setiap tahun.": ("uncited", None, [], "fact"),
        "Sekolah dibangun ulang.": ("invalid_citation", None, ["P98"], "fact"),
        "Anda bertanya tentang Aceh.": ("from_conversation", None, [], "fact"),
        "Jumlahnya Rp 9,6 miliar untuk dua tahun.": ("uncited", None, [], "framing"),
    }
    # The partially invalid claim is judged on its valid key only, and cites only that.
    supported = next(c for c in body["claims"] if c["verdict"] == "supported")
    assert [c["citation_key"] for c in supported["citations"]] == [supported["citation_keys"][0]]
    faith = body["faithfulness"]
    assert (faith["supported"], faith["unsupported"], faith["unverified"], faith["uncited"], faith["invalid_citation"],
            faith["from_conversation"], faith["claims_total"]) == (1, 1, 1, 2, 1, 1, 7)
    assert faith["unverified_reasons"]["disputed"] == 1 and faith["judge_status"] == "unavailable"
    assert (faith["framing_total"], faith["verification"]) == (0, "partial")
    # from_conversation is checked against no source: the rate leaves it out.
    assert (body["claims_supported"], body["claims_total"], body["grounding_rate"]) == (1, 6, round(1 / 6, 4))


def test_a_failed_judge_and_framing_check_never_pass_anything(modelled, model, corpus):
    def segments(labels):
        return [{"text": "Berikut datanya.", "kind": "framing", "cites": [], "layout": "paragraph"},
                {"text": "Anggaran pendidikan 2023 adalah Rp 5 miliar.", "kind": "fact", "cites": [labels[0]], "layout": "continue"}]

    model.scripts.update(agent=searching_then(segments), judge=lambda body: (503, {"error": "down"}),
                         framing=lambda body: (503, {"error": "down"}))
    body = post(modelled, query="Berapa anggaran pendidikan Aceh tahun 2023?").json()
    by_text = {c["text"]: c for c in body["claims"]}
    assert by_text["Anggaran pendidikan 2023 adalah Rp 5 miliar."]["verdict"] == "unverified"
    assert by_text["Anggaran pendidikan 2023 adalah Rp 5 miliar."]["unverified_reason"] == "judge_unavailable"
    assert by_text["Berikut datanya."]["verdict"] == "uncited" and body["framing"] == []
    faith = body["faithfulness"]
    assert (faith["judge_status"], faith["framing_check"], faith["verification"]) == ("unavailable", "unavailable", "none")
    assert body["grounding_rate"] == 0.0 and body["fallback_used"] is False


def test_deterministic_default_annotates_with_exact_offsets(deterministic, corpus):
    body = post(deterministic, query="Ke mana muzakki wajib membayar zakat?").json()
    assert body["schema"] == "annotate-v2" and body["claims"] and not set(body) & REMOVED
    assert_offsets(body)
    assert all(c["verdict"] == "supported" for c in body["claims"])
    assert body["faithfulness"]["mechanism"] == "annotate-v2" and body["faithfulness"]["verification"] == "full"
    assert not re.search(r"\[(P\d+|chunk:[^\]]+)\]", body["answer"])
    assert all(re.fullmatch(r"P\d+", k) for c in body["claims"] for k in c["citation_keys"])


# -- request validation and errors -------------------------------------------------------------


@pytest.mark.parametrize("body, status", [
    ({"query": "zakat", "offer_artifacts": True}, 422),
    ({"query": "zakat", "unknown": 1}, 422),
    ({"query": ""}, 422),
    ({"query": "   "}, 400),
])
def test_malformed_requests_get_the_seed_status(deterministic, body, status):
    response = post(deterministic, **body)
    assert response.status_code == status and "detail" in response.json()


def test_accept_annotations_and_offer_artifacts_false_are_accepted(deterministic, corpus):
    response = post(deterministic, query="Ke mana muzakki membayar zakat?", accept_annotations=False, offer_artifacts=False)
    assert response.status_code == 200 and response.json()["claims"]


@pytest.mark.parametrize("selection", ["secret", "unknown"])
def test_a_selection_with_nothing_visible_is_source_scope_empty(modelled, model, corpus, selection):
    document = corpus["secret"] if selection == "secret" else str(uuid.uuid4())
    response = post(modelled, query="Berapa anggaran pendidikan?", document_ids=[document])
    body = response.json()
    assert response.status_code == 200
    assert (body["fallback_used"], body["fallback_reason"], body["claims"], body["citations"]) == (
        True, "source_scope_empty", [], [])
    assert body["answer"].startswith("Maaf, dokumen yang Anda pilih")
    assert body["faithfulness"]["verification"] == "none" and body["faithfulness"]["unlocated_total"] == 1
    assert body["grounding_rate"] is None
    assert model.calls == []  # no model call, no tool, before anything ran


@pytest.mark.parametrize("selection", [
    {"collection_ids": ["TIDAK-ADA"]},
    {"collection_ids": [" TIDAK-ADA ", "TIDAK-ADA"], "document_ids": None},
])
def test_a_collection_selection_with_nothing_visible_is_source_scope_empty(modelled, model, corpus, selection):
    """Every kind of selection (seed: "a named selection with no indexed document"), not only document_ids."""
    response = post(modelled, query="Berapa anggaran pendidikan?", **selection)
    body = response.json()
    assert response.status_code == 200, body
    assert (body["fallback_used"], body["fallback_reason"], body["claims"], body["citations"]) == (
        True, "source_scope_empty", [], [])
    assert body["answer"].startswith("Maaf, dokumen yang Anda pilih")
    assert body["grounding_rate"] is None
    assert model.calls == []  # before any tool or model call


def test_a_collection_selection_with_nothing_visible_streams_the_same_refusal(modelled, model, corpus):
    response, frames = stream(modelled.url + "/query/v2/stream", {"query": "Berapa anggaran pendidikan?",
                                                                  "collection_ids": ["TIDAK-ADA"]}, KEY)
    assert response.status_code == 200
    names = [name for name, _ in frames]
    assert "error" not in names and names[-1] == "done"
    annotations = next(data for name, data in frames if name == "annotations")
    assert annotations["fallback_reason"] == "source_scope_empty"
    assert model.calls == []


def test_a_conversation_belongs_to_the_route_that_first_answered(deterministic, corpus):
    v1 = httpx.post(deterministic.url + "/query", json={"query": "Ke mana muzakki membayar zakat?"}, headers=KEY).json()
    crossed = post(deterministic, query="Kapan batasnya?", conversation_id=v1["conversation_id"])
    assert crossed.status_code == 409 and "detail" in crossed.json()
    v2 = post(deterministic, query="Ke mana muzakki membayar zakat?").json()
    back = httpx.post(deterministic.url + "/query", json={"query": "Kapan?", "conversation_id": v2["conversation_id"]}, headers=KEY)
    assert back.status_code == 409
    assert post(deterministic, query="Kapan batasnya?", conversation_id=v2["conversation_id"]).status_code == 200


def test_an_empty_conversation_is_claimed_by_the_first_route(deterministic, corpus):
    created = httpx.post(deterministic.url + "/conversations", json={"title": "Zakat"}, headers=KEY).json()
    conversation_id = created.get("conversation_id") or created.get("id")
    assert post(deterministic, query="Ke mana muzakki membayar zakat?", conversation_id=conversation_id).status_code == 200
    v1 = httpx.post(deterministic.url + "/query", json={"query": "Kapan?", "conversation_id": conversation_id}, headers=KEY)
    assert v1.status_code == 409


def test_context_budget_exhausted_is_a_200_not_checked(live_server_factory, model, corpus, scripted):
    server = live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                                 ACEH_RAG_LLM__CONTEXT_WINDOW_TOKENS="1800", ACEH_RAG_LLM__ROUND_MAX_TOKENS="200")
    model.scripts.update(agent=searching_then(lambda labels: []))
    # The system prompt and question fit; the one document's passage does not, before or after a search.
    body = post(server, query="Bagaimana zakat profesi dihitung?", document_ids=[corpus["long"]]).json()
    assert (body["fallback_used"], body["fallback_reason"], body["claims"]) == (True, "context_budget_exhausted", [])
    assert body["faithfulness"]["checked"] is False and body["faithfulness"]["verification"] == "none"


def test_a_guard_block_publishes_no_claims_but_keeps_the_counts(live_server_factory, model, corpus, scripted):
    server = live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                                 ACEH_RAG_LLM__GUARD_MODEL_ENABLED="true")

    def segments(labels):
        return [{"text": "Anggaran pendidikan 2023 adalah Rp 5 miliar.", "kind": "fact", "cites": [labels[0]], "layout": "paragraph"}]

    model.scripts.update(agent=searching_then(segments), judge=judge_by(lambda s, n: "supported"),
                         guard=lambda body: completion(json.dumps({"blocked": True, "categories": ["partisan_campaign"]})))
    body = post(server, query="Berapa anggaran pendidikan Aceh tahun 2023?").json()
    assert (body["fallback_used"], body["fallback_reason"], body["claims"], body["citations"]) == (True, "policy_blocked", [], [])
    assert (body["claims_supported"], body["claims_total"], body["grounding_rate"]) == (1, 1, 1.0)
    assert body["faithfulness"]["grounding"] == {"claims_supported": 1, "claims_total": 1, "grounding_rate": 1.0}
    assert body["faithfulness"]["verification"] == "none"


# -- streaming -------------------------------------------------------------------------------


def test_stream_frames_follow_the_seed_order_and_deltas_rebuild_the_answer(modelled, model, corpus):
    def segments(labels):
        return [{"text": "Berikut datanya 👋.", "kind": "framing", "cites": [], "layout": "paragraph"},
                {"text": "Anggaran pendidikan 2023 adalah Rp 5 miliar.", "kind": "fact", "cites": [labels[0]], "layout": "continue"},
                {"text": "Naik 9 persen dari 2022.", "kind": "fact", "cites": [labels[0], "P77"], "layout": "continue"}]

    model.scripts.update(agent=searching_then(segments), framing=no_framing_checkable,
                         judge=judge_by(lambda statement, n: "unsupported" if "Naik" in statement else "supported"))
    response, frames = stream(modelled.url + "/query/v2/stream", {"query": "Berapa anggaran pendidikan Aceh tahun 2023?"}, KEY)
    assert response.status_code == 200
    names = [name for name, _ in frames]
    start = names.index("message.start")
    assert set(names[:start]) <= {"tool.started", "tool.finished"} and "tool.started" in names[:start]
    tail = [n for n in names[start:] if n not in ("citation", "passage", "answer.delta")]
    assert tail == ["message.start", "trace", "annotations", "done"]
    assert names.index("citation") < names.index("passage") < names.index("annotations") < names.index("answer.delta")
    data = dict(frames)
    assert data["message.start"]["schema"] == "annotate-v2"
    answer = "".join(d["text"] for n, d in frames if n == "answer.delta")
    annotations = data["annotations"]
    assert annotations["fallback_used"] is False and annotations["fallback_reason"] is None
    assert annotations["verification"] == "partial" and annotations["grounding"]["grounding_rate"] == 0.5
    assert all("text" not in c for c in annotations["claims"] + annotations["framing"])
    utf16 = answer.encode("utf-16-le")
    for claim in annotations["claims"]:
        assert utf16[2 * claim["start_utf16"]:2 * claim["end_utf16"]].decode("utf-16-le") == answer[claim["start"]:claim["end"]]
    naik = next(c for c in annotations["claims"] if answer[c["start"]:c["end"]].startswith("Naik"))
    assert naik["invalid_citation_keys"] == ["P77"] and naik["verdict"] == "unsupported"
    citation_keys = {d["citation_key"] for n, d in frames if n == "citation"}
    passage_keys = {d["citation_key"] for n, d in frames if n == "passage"}
    assert citation_keys == passage_keys == {k for c in annotations["claims"] for k in c["citation_keys"]} - {"P77"}
    # The JSON route's answer for the same script is the same text the deltas rebuild.
    assert answer == post(modelled, query="Berapa anggaran pendidikan Aceh tahun 2023?").json()["answer"]
    assert data["done"]["finish_reason"] == "stop"


def test_stream_guard_block_has_no_annotations(deterministic, corpus):
    response, frames = stream(deterministic.url + "/query/v2/stream", {"query": "Bagaimana cara membuat bom rakitan?"}, KEY)
    names = [name for name, _ in frames]
    assert names[-2:] == ["guard.blocked", "done"] and "annotations" not in names and "answer.delta" not in names


def test_stream_setup_failures_are_json(deterministic):
    response = httpx.post(deterministic.url + "/query/v2/stream", json={"query": "zakat", "conversation_id": str(uuid.uuid4())},
                          headers=KEY)
    assert response.status_code == 404 and response.headers["content-type"].startswith("application/json")


# -- conversations ---------------------------------------------------------------------------


def test_later_turns_see_only_verified_segments(modelled, model, corpus):
    def segments(labels):
        return [{"text": "Anggaran pendidikan 2023 adalah Rp 5 miliar.", "kind": "fact", "cites": [labels[0]], "layout": "paragraph"},
                {"text": "Anggaran itu naik 9 persen.", "kind": "fact", "cites": [labels[0]], "layout": "continue"}]

    model.scripts.update(agent=searching_then(segments), framing=no_framing_checkable,
                         judge=judge_by(lambda statement, n: "unsupported" if "naik" in statement else "supported"))
    first = post(modelled, query="Berapa anggaran pendidikan Aceh tahun 2023?").json()
    assert "naik 9 persen" in first["answer"]
    model.calls.clear()
    post(modelled, query="Untuk apa anggaran itu?", conversation_id=first["conversation_id"])
    history = [m["content"] for m in model.bodies("agent")[0]["messages"] if m["role"] == "assistant"]
    assert history == ["Anggaran pendidikan 2023 adalah Rp 5 miliar."]
    # The reader's own copy is the full answer.
    stored = httpx.get(f"{modelled.url}/conversations/{first['conversation_id']}", headers=KEY).json()
    assert any("naik 9 persen" in m["content"] for m in stored["messages"])


# -- v2's tools ------------------------------------------------------------------------------


def test_search_in_document_counts_all_term_passages_and_refuses_unreturned_documents(modelled, model, corpus):
    calls = iter([
        [tool_call("search_in_document", {"document_id": corpus["secret"], "query": "anggaran rahasia"}, "call_a")],
        [tool_call("search_in_document", {"document_id": corpus["budget"], "query": "anggaran pendidikan"}, "call_b")],
    ])

    def agent(body):
        planned = next(calls, None)
        if planned and "tools" in body:
            return completion(None, finish="tool_calls", tool_calls=planned)
        return completion(json.dumps({"segments": [{"text": "Selesai.", "kind": "framing", "cites": [], "layout": "paragraph"}]}))

    model.scripts.update(agent=agent, framing=no_framing_checkable)
    assert post(modelled, query="Berapa anggaran pendidikan Aceh tahun 2023?").status_code == 200
    results = {m["tool_call_id"]: m["content"] for m in model.bodies("agent")[-1]["messages"] if m["role"] == "tool"}
    # A document no search of this question returned (here one the caller may not read): refused.
    assert results["call_a"].startswith("Refused: search_in_document only searches a document an earlier search")
    # The budget document was: the first line counts its passages containing every term.
    assert results["call_b"].startswith('1 of this document\'s passages contain every term of "anggaran pendidikan".')
    assert "search_in_document" in {t["function"]["name"] for t in model.bodies("agent")[0]["tools"]}


def test_two_rounds_without_a_new_document_end_the_search_phase(modelled, model, corpus):
    def repeating(body):
        if "tools" in body:
            return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "anggaran pendidikan"})])
        return completion(json.dumps({"segments": [{"text": "Belum lengkap.", "kind": "framing", "cites": [], "layout": "paragraph"}]}))

    model.scripts.update(agent=repeating, framing=no_framing_checkable)
    post(modelled, query="Berapa anggaran pendidikan Aceh tahun 2023?")
    offered = ["tools" in body for body in model.bodies("agent")]
    # Rounds 1–2 brought no document the opening evidence lacked; the third round must answer.
    assert offered == [True, True, False]


def test_v1_has_no_search_in_document(live_server_factory, model, corpus, scripted):
    server = live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                                 ACEH_RAG_LLM__MAX_RETRIES="0")
    model.scripts.update(agent=lambda body: completion("Tidak ditemukan."), judge=judge_by(lambda s, n: "supported"))
    httpx.post(server.url + "/query", json={"query": "zakat"}, headers=KEY, timeout=60)
    assert "search_in_document" not in {t["function"]["name"] for t in model.bodies("agent")[0]["tools"]}


def test_nothing_relevant_is_published_framing_not_a_refusal(deterministic, corpus):
    body = post(deterministic, query="Berapa harga tiket pesawat ke Jakarta?").json()
    assert body["answer"].startswith("Maaf, saya tidak menemukan informasi")
    assert (body["fallback_used"], body["claims"], body["citations"]) == (False, [], [])
    assert [f["text"] for f in body["framing"]] == [body["answer"]]
    assert body["faithfulness"]["verification"] == "none" and body["grounding_rate"] is None


def test_openapi_documents_the_v2_routes_with_the_schema_field(deterministic):
    spec = httpx.get(deterministic.url + "/openapi.json").json()
    assert {"/query/v2", "/query/v2/stream", "/playground"} <= set(spec["paths"])
    for name in ("QueryV2Response", "PlaygroundResponse"):
        properties = spec["components"]["schemas"][name]["properties"]
        assert "schema" in properties and "schema_" not in properties
