"""Write operations on conversations and their messages."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.db.models import Max

from conversations.models import Conversation, Feedback, Message
from conversations.stats import answer_stats
from kernel.errors import Conflict, NotFound

TITLE_CHARS = 80


class ConversationNotFound(NotFound, LookupError):
    code = "conversation_not_found"

    def __init__(self, conversation_id):
        super().__init__(f"Conversation {conversation_id} not found")


class ConversationRouteConflict(Conflict, RuntimeError):
    """The conversation belongs to the other answer route family."""

    code = "conversation_route_conflict"

    def __init__(self, conversation_id):
        super().__init__(f"Conversation {conversation_id} belongs to another answer route")
        self.conversation_id = conversation_id


def conversation_access_for_route(*, owner: str, conversation_id: uuid.UUID, route_family: str,
                                  for_update: bool = False) -> Conversation:
    """The conversation ``owner`` may continue on ``route_family``: the one rule for the answer's
    early check and the locked check inside ``exchange_persist``.

    Raises ``ConversationNotFound`` (unknown and foreign alike) or ``ConversationRouteConflict``
    (the other route family answered it). ``for_update`` locks the row (caller is in a transaction).
    """
    conversations = Conversation.objects.select_for_update() if for_update else Conversation.objects
    conversation = conversations.filter(id=conversation_id, owner=owner).first()
    if conversation is None:
        raise ConversationNotFound(conversation_id)
    if conversation.route_family and conversation.route_family != route_family:
        raise ConversationRouteConflict(conversation_id)
    return conversation


def conversation_create(*, owner: str, title: str | None, metadata: dict | None = None,
                        workspace_id: uuid.UUID | None = None, notebook_id: uuid.UUID | None = None) -> Conversation:
    return Conversation.objects.create(owner=owner, title=title, metadata=metadata or {"mode": "explicit-create"},
                                       workspace_id=workspace_id, notebook_id=notebook_id)


@dataclass(frozen=True)
class ExchangeRecord:
    question: str
    answer: str
    source_citations: list[dict]
    user_metadata: dict = field(default_factory=dict)
    assistant_metadata: dict = field(default_factory=dict)


@transaction.atomic
def exchange_persist(
    *,
    owner: str,
    conversation_id: uuid.UUID | None,
    new_conversation_id: uuid.UUID | None = None,
    new_title: str,
    route_family: str,
    record: ExchangeRecord,
    assistant_message_id: uuid.UUID,
) -> tuple[Conversation, Message, Message]:
    """Store one question/answer pair, creating the conversation when needed.

    The whole turn is written in one transaction: a cancelled or failed
    answer leaves no half-written turn. The conversation row is locked so two
    concurrent turns get distinct positions and exchange indexes.
    """
    if conversation_id is None:
        conversation = Conversation.objects.create(
            id=new_conversation_id or uuid.uuid4(), owner=owner, title=new_title[:TITLE_CHARS],
            metadata={"mode": "m1-agentic"}, route_family=route_family,
        )
    else:
        conversation = conversation_access_for_route(owner=owner, conversation_id=conversation_id,
                                                     route_family=route_family, for_update=True)
        if not conversation.route_family:
            conversation.route_family = route_family
            conversation.save(update_fields=["route_family", "updated_at"])
    last = conversation.messages.aggregate(position=Max("position"), exchange=Max("exchange_index"))
    position = (last["position"] + 1) if last["position"] is not None else 0
    exchange = (last["exchange"] + 1) if last["exchange"] is not None else 0
    user = Message.objects.create(
        conversation=conversation, position=position, role=Message.Role.USER, content=record.question,
        source_citations=[], metadata=record.user_metadata, exchange_index=exchange,
    )
    assistant = Message.objects.create(
        id=assistant_message_id, conversation=conversation, position=position + 1, role=Message.Role.ASSISTANT,
        content=record.answer, source_citations=record.source_citations, metadata=record.assistant_metadata,
        exchange_index=exchange, **answer_stats(record.assistant_metadata, record.source_citations),
    )
    return conversation, user, assistant


class FeedbackTargetNotFound(NotFound, LookupError):
    """No answer with that id in a conversation the caller owns (unknown and foreign look alike)."""

    code = "message_not_found"

    def __init__(self, message_id):
        super().__init__(f"Message {message_id} not found")


FEEDBACK_COMMENT_CHARS = 2000


@transaction.atomic
def feedback_record(*, owner: str, message: Message | None, message_id, rating: str, comment: str = "") -> tuple[Feedback, bool]:
    """Store ``owner``'s rating of an answer they own, replacing an earlier one; returns (feedback, created).

    ``message`` is the caller's lookup (``message_get_owned``); None raises ``FeedbackTargetNotFound``.
    """
    if message is None or message.role != Message.Role.ASSISTANT or message.conversation.owner != owner:
        raise FeedbackTargetNotFound(message_id)
    return Feedback.objects.update_or_create(
        message=message, subject=owner,
        defaults={"rating": rating, "comment": (comment or "").strip()[:FEEDBACK_COMMENT_CHARS],
                  "triage": Feedback.Triage.NEW, "triaged_by": "", "triaged_at": None},
    )


def feedback_triage(*, feedback_ids: list[int], state: str, by: str) -> int:
    """Set the triage state of feedback rows (``Feedback.Triage``); returns how many changed."""
    if state not in Feedback.Triage.values:
        raise ValueError(f"unknown triage state {state!r}")
    return (Feedback.objects.filter(pk__in=feedback_ids).exclude(triage=state)
            .update(triage=state, triaged_by=by, triaged_at=timezone.now()))
def conversation_mcp_selection_save(*, conversation_id: uuid.UUID, mcp_source_ids: tuple[str, ...]) -> None:
    """Save (or clear, with ``()``) a chat's MCP selection; it applies to every member's later turns."""
    Conversation.objects.filter(id=conversation_id).update(mcp_source_ids=list(mcp_source_ids))
