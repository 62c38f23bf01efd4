"""The chaos model (bench/chaos_model.py) in the suite: every defect on every answer route, nothing broken published.

Each of the fifteen defects meets /query, /query/v2 and the public chat once,
against a real server whose only model is the chaos server on loopback. No
answer may be a server error, and no published answer may carry raw HTML, a
broken label, the obeyed instruction, an unsupported /query claim or a v2
verdict at odds with its citations. The full run (thousands of answers, the
table per defect) is `bench/chaos_model.py`.
"""
from __future__ import annotations

import pytest

from bench.chaos_model import DEFECTS, ChaosModel, ChaosServer, chaos_run, chaos_table
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.public.conftest import PARTNER_ORIGIN, PUBLIC_ENV

pytestmark = pytest.mark.django_db

PASSAGES = {
    "Qanun Baitul Mal": "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan.",
    "Pergub Upah Minimum": "Upah minimum provinsi Aceh tahun 2026 ditetapkan sebesar Rp 3.932.552 per bulan.",
    "Qanun Arsip": "Arsip daerah wajib disimpan oleh perangkat daerah paling singkat sepuluh tahun sejak dibuat.",
}
QUESTIONS = ["Ke mana muzakki wajib membayar zakat?", "Berapa upah minimum provinsi Aceh tahun 2026?",
             "Berapa lama arsip daerah wajib disimpan?"]


@pytest.fixture(scope="module")
def chaos(live_server_factory, django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        for title, text in PASSAGES.items():
            make_document(title=title, chunks=[text])
    model = ChaosModel(cycle_every=3, slow_seconds=2.0)
    server = ChaosServer(model)
    try:
        live = live_server_factory(ACEH_RAG_LLM__BASE_URL=server.url, ACEH_RAG_LLM__MODEL="chaos",
                                   ACEH_RAG_LLM__MAX_RETRIES="0", ACEH_RAG_LLM__TIMEOUT_SECONDS="10", **PUBLIC_ENV)
        yield model, live
    finally:
        server.close()
        with django_db_blocker.unblock():
            purge_committed_corpus()


def test_every_defect_on_every_route_publishes_nothing_broken_and_never_errs(chaos):
    model, server = chaos
    outcomes = chaos_run(server.url, TEST_API_KEY, model, QUESTIONS, answers=3 * len(DEFECTS), origin=PARTNER_ORIGIN)
    table = chaos_table(outcomes)
    print(table)
    assert {(o.defect, o.route) for o in outcomes} == {(d, r) for d in DEFECTS for r in ("query", "v2", "public")}
    assert [o for o in outcomes if o.kind == "server_error"] == [], table
    # (On v2 a published obeyed instruction is a problem unless its segment reads unsupported: published_problems.)
    assert [o for o in outcomes if o.problems] == [], table
    # The run is not vacuous: honest answers are published, and the worst defects never are.
    published = {(o.defect, o.route) for o in outcomes if o.kind == "published"}
    assert {("none", "query"), ("none", "v2"), ("markup", "query"), ("markdown", "query")} <= published, table
    for defect in ("injection_obeyed", "fabricated_figure", "unshown_label", "empty", "cut_sentence"):
        assert (defect, "query") not in published, table
