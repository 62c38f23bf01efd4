"""An answer's tool deadline bounds every search statement (seed: "Retrieval reuse within one answer").

The statement timeout is the time remaining, re-issued before every statement of a search's
transaction, and no statement starts once the deadline has passed.
"""
from __future__ import annotations

import time

import pytest
from django.db import connection

from kernel.principal import Principal
from retrieval.access import Scope
from retrieval.facade import SearchMode, chunks_search, search_deadline
from retrieval.search import SearchTimeout
from retrieval.search.timeouts import bounded_transaction
from tests.factories import make_document

pytestmark = pytest.mark.django_db


def shown_timeout_ms() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        value = cursor.fetchone()[0]
    return int(value[:-2]) if value.endswith("ms") else int(value[:-1]) * 1000


def test_without_a_deadline_the_configured_bound_applies():
    with bounded_transaction(5000):
        assert shown_timeout_ms() == 5000


def test_the_bound_is_the_time_remaining_and_shrinks_statement_by_statement():
    with search_deadline(time.monotonic() + 0.8):
        with bounded_transaction(5000):
            first = shown_timeout_ms()
            time.sleep(0.2)
            second = shown_timeout_ms()
    assert 0 < second < first <= 800
    assert first - second >= 150


def test_no_statement_starts_once_the_deadline_has_passed():
    make_document(title="Qanun Baitul Mal", chunks=["Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh."])
    principal = Principal()
    assert chunks_search(principal=principal, query="zakat", mode=SearchMode.LEXICAL, top_k=3, scope=Scope()).hits
    with search_deadline(time.monotonic() - 0.01):
        with pytest.raises(SearchTimeout):
            chunks_search(principal=principal, query="zakat", mode=SearchMode.LEXICAL, top_k=3, scope=Scope())
