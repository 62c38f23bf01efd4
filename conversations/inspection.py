"""The conversation admin's transcript, and the reader that shows its answers as answers.

An answer is read with the trace the answering app stored beside it; this app
sits below answering and cannot read that trace, so the app that renders the
inspector (the workbench) installs its reader here when it is ready. Without
a reader each message is shown as its text.
"""
from __future__ import annotations

import uuid
from typing import Any, Callable

from conversations.models import Conversation, Feedback, Message

# (answers in order, {answer id: its feedback, newest first}) -> {answer id: its reading view}
AnswerReader = Callable[[list[Message], dict[uuid.UUID, list[Feedback]]], dict[uuid.UUID, Any]]

_installed: list[AnswerReader] = []


def answer_reader_install(reader: AnswerReader) -> None:
    """Make ``reader`` the one the transcript uses (called from an ``AppConfig.ready``; the last one wins)."""
    _installed[:] = [reader]


def conversation_transcript(conversation: Conversation) -> list[tuple[Message, Any | None]]:
    """Every message of ``conversation`` in order, each answer with its reading view (three queries with a reader)."""
    messages = list(Message.objects.filter(conversation=conversation).order_by("position"))
    if not _installed:
        return [(message, None) for message in messages]
    answers = [m for m in messages if m.role == Message.Role.ASSISTANT]
    feedback: dict[uuid.UUID, list[Feedback]] = {}
    for row in Feedback.objects.filter(message_id__in=[a.id for a in answers]).order_by("-updated_at"):
        feedback.setdefault(row.message_id, []).append(row)
    views = _installed[0](answers, feedback)
    return [(message, views.get(message.id)) for message in messages]
