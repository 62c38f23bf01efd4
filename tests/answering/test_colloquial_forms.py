"""Colloquial verbs ("nanggepin", "mutusin", "ngadu") meet the law's forms of them (menanggapi, memutuskan,
pengaduan): in the answer check's term coverage and in the corpus-vocabulary check behind the off-topic signal."""
from __future__ import annotations

import uuid

import pytest

from retrieval.facade.language import formal_forms
from answering.extractive.answerability import assess
from answering.text import content_stems
from answering.types import Claim, Passage
from kernel.principal import Principal
from retrieval import facade
from retrieval.facade import Scope
from tests.factories import make_document

RULE = ("Penyelenggara wajib menanggapi pengaduan secara tertulis paling lambat 14 hari sejak pengaduan diterima dan "
        "memutuskan hasil pemeriksaan paling lambat 60 hari.")


@pytest.mark.parametrize(("colloquial", "formal"), [
    ("nanggepin", "menanggapi"), ("mutusin", "memutuskan"), ("ngadu", "pengaduan"), ("nyalon", "mencalonkan"),
    ("dapet", "dapat"), ("bayarin", "dibayarkan"), ("ditetapin", "ditetapkan"), ("nulis", "menuliskan"),
    ("ngebayar", "membayar"), ("taun", "tahun"), ("liat", "dilihat"), ("sampe", "sampai"), ("kalo", "kalau"),
    ("pake", "pakai"),
])
def test_a_colloquial_verb_has_a_form_stemmed_like_the_laws_word(colloquial, formal):
    assert content_stems(formal) <= {stem for form in formal_forms(colloquial) for stem in content_stems(form)}
    assert not content_stems(formal) & content_stems(colloquial)      # the stemmer alone does not see it


@pytest.mark.parametrize("word", ["kantor", "pajak", "pelayanan", "pemerintah", "kasih", "kerja", "aduannya", "keuangan",
                                  "kuasa", "pasal"])
def test_a_word_that_shows_no_colloquial_form_gets_none(word):
    assert formal_forms(word) == ()


def passage(text: str) -> Passage:
    return Passage(chunk_id=uuid.uuid4(), document_id=uuid.uuid4(), document_title="Undang-Undang Nomor 25 Tahun 2009",
                   legal_reference="Undang-Undang Nomor 25 Tahun 2009 Pasal 50", section_path=("Pasal 50",),
                   kind="body", text=text, score=1.0, citation={})


def test_the_answer_check_meets_colloquial_verbs_through_the_laws_forms():
    law = passage(RULE)
    claims = (Claim(RULE, (law.label,)),)
    verdict = assess("brp lama penyelenggara wajib nanggepin & mutusin pengaduan?", claims, [law])
    assert not any(u.startswith("terms") for u in verdict.unmet)
    assert verdict.coverage == 1.0
    # A word the law does not say is still missing: the forms are not a wildcard.
    off = assess("brp lama penyelenggara wajib ngebales & nraktir pengaduan?", claims, [law])
    assert off.coverage < 1.0


@pytest.mark.django_db
def test_a_colloquial_word_is_not_absent_from_a_corpus_that_uses_its_formal_form():
    make_document(text=f"Pasal 50\n{RULE}", title="Undang-Undang Nomor 25 Tahun 2009 tentang Pelayanan Publik")
    anyone, words = Principal(), ["nanggepin", "mutusin", "bitcoin"]
    assert facade.words_absent_from_visible(words, principal=anyone, scope=Scope()) == words
    assert facade.words_absent_from_visible(words, principal=anyone, scope=Scope(), forms=formal_forms) == ["bitcoin"]


@pytest.mark.django_db
def test_the_lexical_leg_searches_the_formal_form_of_a_colloquial_word_the_corpus_never_uses():
    from retrieval.search.colloquial import formal_terms
    from retrieval.search.lexical import chunk_search_lexical
    from retrieval.facade import visible_documents_q

    law = make_document(text=f"Pasal 50\n{RULE}", title="Undang-Undang Nomor 25 Tahun 2009 tentang Pelayanan Publik")
    make_document(text="Pasal 3\nPenyelenggara menyediakan kantor pelayanan.", title="Qanun Aceh Nomor 1 Tahun 2020")
    # "ngadu" and "mutusin" are never used; "kantor" is, and a word with no colloquial form stays as it is.
    assert formal_terms(["ngadu", "kantor", "mutusin", "bitcoin"]) == ["mengadu", "kantor", "memutus", "bitcoin"]
    everyone = visible_documents_q(Principal(subject="admin", role="admin", verified=True))
    found = chunk_search_lexical("penyelenggara mutusin", document_condition=everyone, limit=5)
    assert found.tier.startswith(("all-words", "PARTIAL"))          # every term matched: the formal form searched
    assert law.chunks.filter(id=found.chunk_ids[0]).exists()


def test_a_colloquial_verb_picks_the_unit_that_says_it_in_the_laws_words():
    from answering.extractive.synthesis import synthesise

    article = passage("(1) Keberatan diajukan oleh pemohon paling lambat 30 (tiga puluh) hari kerja setelah alasan "
                      "keberatan ditemukan.\n(2) Atasan pejabat memberikan tanggapan atas keberatan paling lambat 30 "
                      "(tiga puluh) hari kerja sejak keberatan diterima secara tertulis.")
    draft = synthesise("brp hari mereka wajib nanggepin keberatan?", [article])
    assert not draft.no_answer
    assert "sejak keberatan diterima" in draft.claims[0].text


@pytest.mark.django_db
def test_a_common_word_is_present_without_a_scan_and_rare_ones_are_looked_up():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from retrieval.search.colloquial import _present, forget_present_words
    from retrieval.search.lexical import forget_lexeme_statistics

    make_document(chunks=[f"Pemerintah Aceh menetapkan ketentuan nomor {i}." for i in range(30)] + [RULE])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")
    forget_lexeme_statistics()
    forget_present_words()
    assert _present(["aceh", "pengaduan", "bitcoin"]) == {"aceh", "pengaduan"}
    forget_present_words()
    with CaptureQueriesContext(connection) as queries:
        assert _present(["pemerintah", "aceh"]) == {"pemerintah", "aceh"}
    # Their lexemes are among the statistics' common ones (and their stems remembered): no statement at all.
    assert not [query for query in queries.captured_queries if "EXISTS" in query["sql"]]
