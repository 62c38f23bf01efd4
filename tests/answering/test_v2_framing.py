"""/query/v2's deterministic framing cites its source (issue #29): the heading that names the regulation and
Pasal of a quotation ("Qanun Aceh Nomor 10 Tahun 2018 Pasal 2"), or a "Berdasarkan <regulation> Pasal X:" line,
is a claim citing the passage it introduces, supported when that passage is the regulation and article it names."""
from __future__ import annotations

from dataclasses import replace

import pytest

from answering.answer import drafts
from answering.attribution import SourceIdentity, attribution, attributes_to
from answering.judging import DeterministicJudge, JudgeItem
from tests.factories import make_document
from tests.retrieval.relations.regulations import qanun

pytestmark = pytest.mark.django_db

ZAKAT = "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."
QUESTION = "Apa kewajiban muzakki terkait pembayaran zakat?"


@pytest.fixture
def zakat():
    return make_document(text=qanun("10", 2018, "Baitul Mal", [
        "Baitul Mal Aceh adalah lembaga keistimewaan Aceh yang mengelola zakat, infak dan harta wakaf.", ZAKAT,
    ]), filename="qanun-10-2018.txt")


def ask(client, query, path="/query/v2"):
    response = client.post(path, data={"query": query}, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def spans_cover_the_answer(body):
    """Every span's offsets are its text, and what no span covers is the renderer's layout (whitespace, the
    heading's "## ")."""
    answer, covered = body["answer"], [False] * len(body["answer"])
    utf16 = answer.encode("utf-16-le")
    for span in body["claims"] + body["framing"]:
        assert answer[span["start"]:span["end"]] == span["text"]
        assert utf16[2 * span["start_utf16"]:2 * span["end_utf16"]].decode("utf-16-le") == span["text"]
        covered[span["start"]:span["end"]] = [True] * (span["end"] - span["start"])
    assert all(char.isspace() or char == "#" for char, seen in zip(answer, covered) if not seen)
    assert body["faithfulness"]["unlocated_total"] == 0


def test_a_one_clause_answer_is_fully_verified_with_its_framing_citing_the_passage(api_client, zakat):
    body = ask(api_client, QUESTION)

    framing, fact = body["claims"]
    assert framing["text"] == "Qanun Aceh Nomor 10 Tahun 2018 Pasal 2" and framing["kind"] == "framing"
    assert framing["layout"] == "heading" and fact["text"] == ZAKAT and fact["kind"] == "fact"
    assert framing["citation_keys"] == fact["citation_keys"] and len(fact["citation_keys"]) == 1
    assert framing["citations"] == fact["citations"]
    assert framing["citations"][0]["citation"]["legal_reference"] == "Qanun Aceh Nomor 10 Tahun 2018 Pasal 2"
    assert (framing["verdict"], fact["verdict"]) == ("supported", "supported")
    assert body["framing"] == []
    faith = body["faithfulness"]
    assert (faith["verification"], faith["claims_total"], faith["supported"], faith["framing_total"]) == ("full", 2, 2, 0)
    assert (body["claims_supported"], body["claims_total"], body["grounding_rate"]) == (2, 2, 1.0)
    assert [c["chunk_id"] for c in body["citations"]] == [fact["citations"][0]["citation"]["chunk_id"]]
    assert body["answer"] == f"## {framing['text']}\n\n{ZAKAT}"
    spans_cover_the_answer(body)


def test_v1_publishes_the_same_framing_outside_its_claim_counts(api_client, zakat):
    """On /query the heading carries no label and the gate checks only labelled claims, so claims_total stays
    "every claim checked": the one clause. Both routes read 100%."""
    body = ask(api_client, QUESTION, path="/query")
    assert body["answer"].startswith("**Qanun Aceh Nomor 10 Tahun 2018 Pasal 2**\nSetiap muzakki wajib")
    assert (body["claims_supported"], body["claims_total"], body["grounding_rate"]) == (1, 1, 1.0)


def test_a_framing_naming_another_regulation_is_not_supported(api_client, zakat, monkeypatch):
    make_document(text=qanun("3", 2021, "Lembaga Wali Nanggroe", ["Wali Nanggroe adalah pemimpin lembaga adat."]),
                  filename="qanun-3-2021.txt")
    synthesise = drafts.synthesise
    def another_heading(*args, **kwargs):
        draft = synthesise(*args, **kwargs)
        first = replace(draft.claims[0], heading="Qanun Aceh Nomor 3 Tahun 2021 Pasal 2")
        return replace(draft, claims=(first, *draft.claims[1:]))

    monkeypatch.setattr(drafts, "synthesise", another_heading)
    body = ask(api_client, QUESTION)
    framing, fact = body["claims"]
    assert framing["text"] == "Qanun Aceh Nomor 3 Tahun 2021 Pasal 2"
    assert framing["citation_keys"] == fact["citation_keys"]       # it introduces the zakat passage …
    assert framing["verdict"] == "unsupported"                     # … which is not that Qanun's Pasal 2
    assert fact["verdict"] == "supported"
    assert (body["faithfulness"]["verification"], body["grounding_rate"]) == ("partial", 0.5)
    spans_cover_the_answer(body)


def test_a_framing_that_names_nothing_stays_framing(api_client, zakat, monkeypatch):
    synthesise = drafts.synthesise
    monkeypatch.setattr(drafts, "synthesise", lambda *args, **kwargs: replace(
        synthesise(*args, **kwargs), framing="Berikut rinciannya:"))

    body = ask(api_client, QUESTION)

    assert [f["text"] for f in body["framing"]] == ["Berikut rinciannya:"]
    assert [c["kind"] for c in body["claims"]] == ["framing", "fact"]     # the heading cites, the lead-in does not
    assert (body["faithfulness"]["verification"], body["faithfulness"]["framing_total"]) == ("full", 1)
    spans_cover_the_answer(body)


IDENTITY = SourceIdentity("Qanun Aceh Nomor 10 Tahun 2018 tentang Baitul Mal",
                          "Qanun Aceh Nomor 10 Tahun 2018 Pasal 2 ayat (1)", ("BAB I", "Pasal 2"))


@pytest.mark.parametrize("framing,supported", [
    ("Berdasarkan Qanun Aceh Nomor 10 Tahun 2018 Pasal 2 ayat (1):", True),
    ("According to Qanun 10/2018:", True),
    ("Berdasarkan Qanun Aceh Nomor 10 Tahun 2018 tentang Baitul Mal:", True),
    ("Pasal 2", True),
    ("Berdasarkan Qanun Aceh Nomor 10 Tahun 2018 Pasal 3:", False),              # another article
    ("Berdasarkan Qanun Aceh Nomor 2 Tahun 2018 Pasal 10:", False),              # the numbers swapped
    ("Berdasarkan Peraturan Gubernur Aceh Nomor 10 Tahun 2018 Pasal 2:", False),  # another instrument type
    ("Berdasarkan Qanun Aceh Nomor 10 Tahun 2018 Pasal 2 ayat (4):", False),     # another ayat
    ("Berdasarkan Qanun Aceh tentang Wali Nanggroe:", False),                     # another title
])
def test_a_named_source_is_checked_against_the_passage_identity(framing, supported):
    named = attribution(framing)
    assert named is not None and attributes_to(named, IDENTITY) is supported


@pytest.mark.parametrize("framing", [
    "Berikut rinciannya:", "Berdasarkan dokumen yang tersedia:", "Perlu diperhatikan:",
    "Berdasarkan Pasal 2, muzakki wajib membayar zakat.",      # says more than a name: a claim of its own
])
def test_framing_that_names_no_source_is_no_attribution(framing):
    assert attribution(framing) is None


def test_the_deterministic_judge_checks_only_a_framing_attribution_against_the_identity():
    text = "Berdasarkan Qanun Aceh Nomor 10 Tahun 2018 Pasal 2 ayat (1):"
    body = {"P1": ZAKAT}                       # the passage body does not carry its own reference
    with_identity = DeterministicJudge({"P1": IDENTITY})
    assert with_identity.judge_batch([JudgeItem(0, text, "", body, "framing")]) == {0: "supported"}
    # A fact is judged by the passage's words, and so is a framing line whose passage's identity is unknown.
    assert with_identity.judge_batch([JudgeItem(0, text, "", body, "fact")]) == {0: "unsupported"}
    assert DeterministicJudge().judge_batch([JudgeItem(0, text, "", body, "framing")]) == {0: "unsupported"}


def test_a_heading_with_the_note_of_a_list_cut_short_is_still_its_passage_identity():
    assert IDENTITY.is_named_by("Qanun Aceh Nomor 10 Tahun 2018 Pasal 2 ayat (1) (5 dari 7 butir ditampilkan)")
    assert IDENTITY.is_named_by("Qanun Aceh Nomor 10 Tahun 2018 Pasal 2 ayat (1)")
    assert not IDENTITY.is_named_by("Qanun Aceh Nomor 3 Tahun 2021 Pasal 2 (5 dari 7 butir ditampilkan)")
