"""The document leg's own ranking inside a candidate document: a common word ranks but does not nominate."""
from __future__ import annotations

import pytest
from django.db import connection

from retrieval.models import Chunk
from retrieval.search.documents import _own_rankings
from retrieval.search.focus import _document_ranking
from retrieval.search.glossary import Rewrite
from retrieval.search.lexical import forget_lexeme_statistics
from tests.factories import make_document

pytestmark = pytest.mark.django_db

COMMON = [f"Pemerintah Aceh menetapkan ketentuan umum nomor {i} sebagaimana dimaksud." for i in range(30)]
RARE = "Kerbau dipelihara warga gampong sebagaimana dimaksud."


def _document():
    document = make_document(chunks=COMMON + [RARE])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")
    forget_lexeme_statistics()
    rare = Chunk.objects.get(document=document, text__contains="Kerbau")
    return document, rare


def test_a_common_word_does_not_nominate_a_documents_own_passages():
    document, rare = _document()
    # "dimaksud" is in every passage: with the common-term share, only "kerbau" nominates.
    own = _own_rankings([document.id], Rewrite("dimaksud kerbau"), None, "", False, common_term_share=0.05)
    assert own[document.id] == [rare.id]
    # Without the share (every lexeme nominates), the common word brings the other passages in behind it.
    every = _own_rankings([document.id], Rewrite("dimaksud kerbau"), None, "", False, common_term_share=1.0)
    assert every[document.id][0] == rare.id and len(every[document.id]) > 1


def test_a_named_documents_ranking_keeps_the_rule_and_falls_back_to_every_word():
    document, rare = _document()
    assert _document_ranking(document.id, Rewrite("dimaksud kerbau"), None, "", common_term_share=0.05) == [rare.id]
    # Only common words: they nominate, rather than nothing.
    assert len(_document_ranking(document.id, Rewrite("dimaksud"), None, "", common_term_share=0.05)) > 1
