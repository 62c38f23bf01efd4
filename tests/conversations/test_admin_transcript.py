"""The conversation admin's transcript: each answer read by the installed reader (the workbench's inspector,
with the answer's trace), or shown as its text when no reader is installed."""
from __future__ import annotations

import pytest

from conversations import inspection
from conversations.models import Conversation
from tests.factories import make_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(api_client) -> Conversation:
    make_document(chunks=["PPID wajib menjawab permohonan informasi paling lambat 10 hari kerja."])
    body = api_client.post("/query", data={"query": "Berapa hari PPID wajib menjawab permohonan?"},
                           content_type="application/json").json()
    return Conversation.objects.get(id=body["conversation_id"])


def test_the_workbench_reader_shows_each_answer_with_its_trace(conversation, django_assert_num_queries):
    # Given the workbench installed its reader at start-up
    # When the transcript is read
    with django_assert_num_queries(3):   # messages, feedback, traces
        transcript = inspection.conversation_transcript(conversation)
    # Then the question is shown as text and the answer as an answer, with the trace the answer route stored
    (question, no_view), (answer, view) = transcript
    assert (question.role, no_view) == ("user", None)
    assert answer.role == "assistant" and view.message is answer
    assert view.trace is not None and view.trace.total_ms > 0 and view.trace_rows


def test_without_a_reader_every_message_is_its_text(conversation, monkeypatch, admin_client):
    # Given no app installed a reader
    monkeypatch.setattr(inspection, "_installed", [])
    # When the transcript is read
    transcript = inspection.conversation_transcript(conversation)
    # Then every message is listed in order without a reading view, and the admin page still renders it
    assert [(m.role, view) for m, view in transcript] == [("user", None), ("assistant", None)]
    page = admin_client.get(f"/admin/conversations/conversation/{conversation.id}/change/")
    assert page.status_code == 200 and "10 hari kerja".encode() in page.content and b"<h3>Trace" not in page.content
