"""The model path's publication reasons against the scripted OpenAI-compatible server on loopback."""
from __future__ import annotations

import json

import pytest

from answering.notices import REFUSAL_NOTICES
from tests.answering.scripted_model import ScriptedModel, careful_agent, completion, judge_rejecting, shown_passages
from tests.answering.test_model_agent import ZAKAT, corpus, run  # noqa: F401  (corpus is a fixture)

pytestmark = pytest.mark.django_db


def answering_with(text_of):
    """An agent that searches once, then answers with ``text_of(labels)``."""
    def agent(body):
        if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
            return careful_agent(body)
        return completion(text_of([label for label, _ in shown_passages(body)]))
    return agent


LABEL_FREE = "Muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."


def assert_withheld(body, reason):
    assert (body["fallback_used"], body["fallback_reason"]) == (True, reason)
    assert body["citations"] == [] and body["answer"] == REFUSAL_NOTICES[reason]["id"]


def test_label_free_factual_prose_is_checked_and_published_with_collective_citations(api_client, corpus):
    model = ScriptedModel(agent=answering_with(lambda labels: LABEL_FREE))
    body = run(api_client, model)[0].json()
    assert (body["fallback_used"], body["fallback_reason"]) == (False, None)
    assert LABEL_FREE.rstrip(".") in body["answer"] and body["citations"]
    assert body["grounding_rate"] == 1.0 and len(model.bodies("unlabelled_check")) == 1
    assert "Statement: Muzakki wajib membayar zakat" in model.bodies("judge")[0]["messages"][-1]["content"]


def test_label_free_prose_the_judge_rejects_is_never_published(api_client, corpus):
    model = ScriptedModel(agent=answering_with(lambda labels: LABEL_FREE), judge=judge_rejecting("Muzakki"))
    body = run(api_client, model)[0].json()
    assert_withheld(body, "unverified_no_claims")
    assert "Baitul Mal" not in body["answer"] and body["claims_total"] == 1 and body["claims_supported"] == 0


@pytest.mark.parametrize("check", [
    lambda body: (503, {"error": {"message": "down"}}),               # the classification is unavailable
    lambda body: completion("I think it is factual"),                  # or unusable
])
def test_label_free_prose_is_withheld_when_it_cannot_be_classified(api_client, corpus, check):
    body = run(api_client, ScriptedModel(agent=answering_with(lambda labels: LABEL_FREE), unlabelled_check=check))[0].json()
    assert_withheld(body, "unverified_no_claims")


def test_label_free_prose_is_withheld_when_the_judge_is_unavailable(api_client, corpus):
    model = ScriptedModel(agent=answering_with(lambda labels: LABEL_FREE), judge=lambda body: (500, {"error": {}}))
    assert_withheld(run(api_client, model)[0].json(), "unverified_no_claims")


def test_no_claims_only_when_the_model_confirms_nothing_is_asserted(api_client, corpus):
    greeting = "Terima kasih atas pertanyaan Anda. Silakan tanyakan hal lain tentang zakat."
    model = ScriptedModel(agent=answering_with(lambda labels: greeting),
                          unlabelled_check=lambda body: completion(json.dumps({"asserts_facts": False})))
    body = run(api_client, model)[0].json()
    assert (body["fallback_used"], body["fallback_reason"], body["grounding_rate"]) == (False, "no_claims", None)
    assert body["answer"] == greeting and body["citations"] == [] and model.bodies("judge") == []


def test_an_empty_completion_is_refused(api_client, corpus):
    body = run(api_client, ScriptedModel(agent=answering_with(lambda labels: "")))[0].json()
    assert_withheld(body, "empty_completion")
    assert body["grounding_rate"] is None


def test_claims_citing_only_labels_never_shown_are_unresolved_citation(api_client, corpus):
    model = ScriptedModel(agent=answering_with(lambda labels: "Muzakki wajib membayar zakat melalui Baitul Mal Aceh [P9]."))
    body = run(api_client, model)[0].json()
    assert_withheld(body, "unresolved_citation")
    assert body["grounding_rate"] is None and model.bodies("judge") == []


def test_an_unused_verbatim_excerpt_is_dropped_without_counting_as_a_failed_claim(api_client, corpus):
    excerpt = ZAKAT.split(". ")[1]     # copied from the passage, cited by nothing
    model = ScriptedModel(agent=answering_with(
        lambda labels: f"Muzakki wajib membayar zakat melalui Baitul Mal Aceh [{labels[0]}]. {excerpt}"))
    body = run(api_client, model)[0].json()
    assert (body["fallback_used"], body["fallback_reason"]) == (False, None)
    assert body["dropped_claims_count"] == 1 and (body["claims_supported"], body["claims_total"]) == (1, 1)
    assert "penghasilan kena pajak" not in body["answer"]


def test_an_answer_the_answerability_judge_rejects_is_refused(api_client, corpus):
    model = ScriptedModel(answerability=lambda body: completion(json.dumps({"answers_question": False, "unmet": ["year"]})))
    body = run(api_client, model)[0].json()
    assert (body["fallback_used"], body["fallback_reason"], body["grounding_rate"]) == (True, "no_answer", None)
    assert body["citations"] == [] and "Baitul Mal Aceh" not in body["answer"]
    asked = model.bodies("answerability")[0]["messages"][-1]["content"]
    assert asked.startswith("Question: Ke mana muzakki wajib membayar zakat?") and '<passage key="P' in asked


def test_a_year_the_cited_passages_do_not_hold_is_refused_on_the_model_path_too(api_client, corpus):
    body = run(api_client, ScriptedModel(), "Ke mana muzakki wajib membayar zakat tahun 2019?")[0].json()
    assert (body["fallback_used"], body["fallback_reason"]) == (True, "no_answer")
