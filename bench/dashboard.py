"""Quality dashboard at scale: /admin/dashboard/ over 100k stored messages.

Builds, in its own embedded database (var/bench-dashboard), 50k conversations
of one question and one answer each (100k messages) spread over 120 days:
answers carry realistic metadata (~3 KB of JSON, as the answer routes store),
20% are refusals with the seed's reasons, answers cite 1-3 of 300 documents,
5k carry feedback, 200 ingestions failed. Then renders the dashboard page
(the whole admin response, as an administrator's browser gets it) for each
period, and times one figure computed the way it would be without the
answer columns (refusals by reason read out of the metadata JSON) as a
same-run baseline.

Run: .venv/bin/python bench/dashboard.py [--messages 100000] [--runs 7]
Target: the page renders in under 1 s at 100k messages.
"""
from __future__ import annotations

import argparse
import time

from _setup import django_setup, percentile

REASONS = ["no_answer", "coverage_incomplete", "policy_blocked", "model_timeout", "source_scope_empty"]


def build(messages: int) -> None:
    from django.db import connection

    from conversations.models import Message
    from retrieval.models import Collection, Document

    if Message.objects.count() == messages and connection.introspection.get_constraints(
            connection.cursor(), "conversations_message").get("message_answer_figures"):
        return
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE conversations_feedback, conversations_message, conversations_conversation, "
                       "retrieval_ingestion, retrieval_chunk, retrieval_document, retrieval_collection CASCADE")
    Collection.objects.create(id="JDIH")
    Document.objects.bulk_create([
        Document(collection_id="JDIH", title=f"Qanun Aceh Nomor {n} Tahun 2020 tentang Urusan {n}", source_key=f"bench:{n}",
                 content_hash=f"{n:064d}", status="indexed") for n in range(300)])
    conversations = messages // 2
    padding = "x" * 2500  # stands in for the claims, passages and model-call log of a real answer's metadata
    with connection.cursor() as cursor:
        cursor.execute("""
            INSERT INTO conversations_conversation (id, owner, title, metadata, route_family, created_at, updated_at)
            SELECT md5('c' || g)::uuid, 'user-' || (g %% 997), 'Pertanyaan ' || g, '{}'::jsonb,
                   CASE WHEN g %% 3 = 0 THEN 'query_v2' ELSE 'query' END,
                   now() - (g %% 120) * interval '1 day' - (g %% 86400) * interval '1 second',
                   now() - (g %% 120) * interval '1 day'
            FROM generate_series(1, %s) g""", [conversations])
        cursor.execute("""
            INSERT INTO conversations_message (id, conversation_id, position, role, content, source_citations, metadata,
                                               exchange_index, created_at, route, cited_document_ids)
            SELECT md5('q' || g)::uuid, md5('c' || g)::uuid, 0, 'user',
                   'Apa isi pertanyaan nomor ' || (g %% 5000) || ' tentang qanun?', '[]'::jsonb, '{}'::jsonb, 0,
                   c.created_at, '', '{}'
            FROM generate_series(1, %s) g JOIN conversations_conversation c ON c.id = md5('c' || g)::uuid""",
                       [conversations])
        cursor.execute("""
            WITH docs AS (SELECT array_agg(id ORDER BY title) AS ids FROM retrieval_document)
            INSERT INTO conversations_message (id, conversation_id, position, role, content, source_citations, metadata,
                                               exchange_index, created_at, route, fallback_reason, grounding_rate,
                                               latency_ms, cited_document_ids)
            SELECT md5('a' || g)::uuid, md5('c' || g)::uuid, 1, 'assistant', 'Berdasarkan Qanun ... jawaban ' || g,
                   '[]'::jsonb,
                   jsonb_build_object('synthesis', jsonb_build_object('faithfulness', jsonb_build_object(
                       'fallback_used', g %% 5 = 0, 'fallback_reason', CASE WHEN g %% 5 = 0 THEN (%s::text[])[1 + g %% 5] END)),
                       'trace', jsonb_build_object('route', '/query'), 'padding', %s || g),
                   0, c.created_at + interval '2 seconds', '/query',
                   CASE WHEN g %% 5 = 0 THEN (%s::text[])[1 + (g / 5) %% 5] END,
                   CASE WHEN g %% 5 = 0 THEN NULL ELSE 0.5 + (g %% 50) / 100.0 END,
                   200 + (g * 7919) %% 3000,
                   CASE WHEN g %% 5 = 0 THEN '{}'::uuid[]
                        ELSE ARRAY[docs.ids[1 + (g * 31) %% 300], docs.ids[1 + (g * 17) %% 40]] END
            FROM generate_series(1, %s) g JOIN conversations_conversation c ON c.id = md5('c' || g)::uuid, docs""",
                       [REASONS, padding, REASONS, conversations])
        cursor.execute("""
            INSERT INTO conversations_feedback (message_id, subject, rating, comment, created_at, updated_at)
            SELECT md5('a' || g)::uuid, 'user-' || (g %% 997), CASE WHEN g %% 3 = 0 THEN 'down' ELSE 'up' END, '',
                   now() - (g %% 120) * interval '1 day', now() - (g %% 120) * interval '1 day'
            FROM generate_series(1, %s, 10) g""", [conversations])
        cursor.execute("""
            INSERT INTO retrieval_ingestion (id, kind, source_name, source_key, stored_path, collection_id, confidential,
                                             status, outcome, error, chunk_count, attempts, requested_by, created_at, updated_at)
            SELECT md5('i' || g)::uuid, 'file', 'berkas-' || g || '.pdf', 'JDIH:berkas-' || g, '', 'JDIH', false,
                   'failed', 'failed', 'no text to index after parsing', 0, 1, 'bench', now() - (g % 120) * interval '1 day',
                   now() - (g % 120) * interval '1 day'
            FROM generate_series(1, 200) g""")
    # What autovacuum does on a live system soon after a load (visibility map for index-only scans, statistics).
    with connection.cursor() as cursor:
        for table in ("conversations_message", "conversations_feedback", "conversations_conversation", "retrieval_ingestion"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    django_setup("var/bench-dashboard")
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from workbench.dashboard import Period, dashboard_build

    started = time.perf_counter()
    build(args.messages)
    print(f"data: {args.messages} messages ready in {time.perf_counter() - started:.1f}s")
    admin, _ = get_user_model().objects.get_or_create(username="bench", defaults={"is_staff": True, "is_superuser": True})
    client = Client()
    client.force_login(admin)
    for days in ("7", "30", "90", "365"):
        timings = []
        for _ in range(args.runs):
            started = time.perf_counter()
            response = client.get(f"/admin/dashboard/?days={days}")
            timings.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200
        board = dashboard_build(period=Period.last(days))
        print(f"dashboard last {days:>3} days: p50 {percentile(timings, 0.5):6.1f} ms  max {max(timings):6.1f} ms  "
              f"({board.answers} answers, {board.refused} refused, {len(response.content) // 1024} KB)")
    # Same run, same data: refusals by reason read from the JSON instead of the column.
    period_sql = "role = 'assistant' AND created_at >= now() - interval '365 days'"
    for label, sql in [
        ("column  (fallback_reason)", f"SELECT fallback_reason, count(*) FROM conversations_message WHERE {period_sql} "
                                      "AND fallback_reason IS NOT NULL GROUP BY 1"),
        ("JSON    (metadata->...)  ", "SELECT metadata->'synthesis'->'faithfulness'->>'fallback_reason', count(*) "
                                      f"FROM conversations_message WHERE {period_sql} AND "
                                      "(metadata->'synthesis'->'faithfulness'->>'fallback_used')::boolean GROUP BY 1"),
    ]:
        timings = []
        with connection.cursor() as cursor:
            for _ in range(args.runs):
                started = time.perf_counter()
                cursor.execute(sql)
                cursor.fetchall()
                timings.append((time.perf_counter() - started) * 1000)
        print(f"refusals by reason, 365 days, {label}: p50 {percentile(timings, 0.5):6.1f} ms")


if __name__ == "__main__":
    main()
