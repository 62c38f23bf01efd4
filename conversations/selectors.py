"""Reads of conversations and messages, always through their owner."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Substr

from conversations.history_view import history_view_read
from conversations.models import Conversation, Message


def conversation_list(*, owner: str) -> QuerySet[Conversation]:
    return Conversation.objects.filter(owner=owner).order_by("-created_at", "-id")


def conversation_get_owned(*, owner: str, conversation_id: uuid.UUID) -> Conversation | None:
    """The conversation when ``owner`` owns it; unknown and foreign ids alike give None."""
    return Conversation.objects.filter(owner=owner, id=conversation_id).first()


def message_get_owned(*, owner: str, message_id: uuid.UUID) -> Message | None:
    """An answer in a conversation ``owner`` owns; unknown and foreign ids alike give None."""
    return (Message.objects.select_related("conversation")
            .filter(id=message_id, conversation__owner=owner, role=Message.Role.ASSISTANT).first())


def message_get_by_turn(*, owner: str, conversation_id: uuid.UUID, exchange_index: int) -> Message | None:
    """The answer of one exchange (zero-based) of a conversation ``owner`` owns."""
    return (Message.objects.select_related("conversation")
            .filter(conversation_id=conversation_id, conversation__owner=owner, exchange_index=exchange_index,
                    role=Message.Role.ASSISTANT).order_by("-position").first())


def message_source_citations(*, message_id: uuid.UUID | None) -> list[dict]:
    """The published sources of one stored answer (empty when it is unknown)."""
    if message_id is None:
        return []
    row = Message.objects.filter(id=message_id).values_list("source_citations", flat=True).first()
    return list(row or [])


def conversation_messages(*, conversation: Conversation) -> list[Message]:
    return list(conversation.messages.order_by("position"))


@dataclass(frozen=True)
class HistoryTurn:
    exchange_index: int
    question: str
    answer: str
    cited_document_ids: tuple[str, ...]


@dataclass(frozen=True)
class HistoryWindow:
    turns: tuple[HistoryTurn, ...]
    prior_exchanges: int          # exchanges stored before the current question

    @property
    def exchanges_in_view(self) -> int:
        return len(self.turns)

    @property
    def truncated(self) -> bool:
        return self.exchanges_in_view < self.prior_exchanges

    def last_cited_document_ids(self) -> tuple[str, ...]:
        return self.turns[-1].cited_document_ids if self.turns else ()


# Token estimate of a history message, the agent's own (answering.llm.agent): ~3 characters a token
# for Indonesian legal text plus a per-message overhead. Kept here so conversations need not import answering.
HISTORY_CHARS_PER_TOKEN = 3.0
HISTORY_MESSAGE_OVERHEAD_TOKENS = 4


def history_turn_tokens(turn: HistoryTurn) -> int:
    return sum(int(len(text) / HISTORY_CHARS_PER_TOKEN) + HISTORY_MESSAGE_OVERHEAD_TOKENS
               for text in (turn.question, turn.answer))


def history_window(*, conversation: Conversation | None, max_messages: int | None = None,
                   max_chars: int | None = None, max_tokens: int | None = None,
                   pin_first: bool = True) -> HistoryWindow:
    """The first exchange and the most recent ones within the message, character and token caps.

    Caps default to ``ACEH_RAG_HISTORY__*``. With the default ten messages the
    sixth answer sees all five earlier exchanges; the seventh sees five of six
    and is truncated: the first exchange stays pinned (the question that
    started the chat) beside the four most recent. Character and token
    trimming drops the oldest unpinned exchange first and the pinned one only
    when the most recent exchange alone remains beside it.
    """
    caps = settings.ACEH_RAG.history
    max_messages = caps.max_messages if max_messages is None else max_messages
    max_chars = caps.max_chars if max_chars is None else max_chars
    max_tokens = caps.max_tokens if max_tokens is None else max_tokens
    if conversation is None or conversation.pk is None:
        return HistoryWindow((), 0)
    prior = (
        Message.objects.filter(conversation=conversation, role=Message.Role.USER)
        .values_list("exchange_index", flat=True).distinct().count()
    )
    per_exchange = 2
    room = max_messages // per_exchange
    if room <= 0 or prior == 0:
        return HistoryWindow((), prior)
    last = (Message.objects.filter(conversation=conversation, role=Message.Role.USER)
            .order_by("-exchange_index").values_list("exchange_index", flat=True).first())
    pinned = pin_first and prior > room and room >= 2
    recent_from = last - (room - 1 if pinned else room) + 1
    wanted = Q(exchange_index__gte=recent_from) | (Q(exchange_index=0) if pinned else Q(pk__in=[]))
    messages = list(
        Message.objects.filter(wanted, conversation=conversation, role__in=[Message.Role.USER, Message.Role.ASSISTANT])
        .order_by("position")
    )
    exchanges: dict[int, dict] = {}
    for message in messages:
        slot = exchanges.setdefault(message.exchange_index, {"question": None, "answer": None, "docs": ()})
        if message.role == Message.Role.USER:
            slot["question"] = message.content
        elif (verified := history_view_read(message.metadata)) is not None:
            # A /query/v2 answer: later turns read only its verified segments (the reader keeps the full copy).
            slot["answer"] = verified.text
            slot["docs"] = verified.document_ids
        else:
            slot["answer"] = message.content
            slot["docs"] = tuple(dict.fromkeys(
                c.get("document_id") for c in message.source_citations or [] if c.get("document_id")))
    turns = [
        HistoryTurn(index, slot["question"], slot["answer"], slot["docs"])
        for index, slot in sorted(exchanges.items())
        if slot["question"] is not None and slot["answer"] is not None
    ]

    def over() -> bool:
        return (sum(len(t.question) + len(t.answer) for t in turns) > max_chars
                or sum(history_turn_tokens(t) for t in turns) > max_tokens)

    while turns and over():
        # The oldest unpinned exchange goes first; the pinned first one before the latest exchange.
        keep_first = pinned and turns[0].exchange_index == 0 and len(turns) > 2
        turns.pop(1 if keep_first else 0)
    return HistoryWindow(tuple(turns), prior)


@dataclass(frozen=True)
class ConversationContainer:
    """Where a chat belongs and its saved MCP selection (read without an owner check: callers check membership)."""

    owner: str
    workspace_id: uuid.UUID | None
    notebook_id: uuid.UUID | None
    mcp_source_ids: tuple[str, ...] | None


def conversation_container(*, conversation_id: uuid.UUID) -> ConversationContainer | None:
    row = (Conversation.objects.filter(id=conversation_id)
           .values("owner", "workspace_id", "notebook_id", "mcp_source_ids").first())
    if row is None:
        return None
    saved = row["mcp_source_ids"]
    return ConversationContainer(row["owner"], row["workspace_id"], row["notebook_id"],
                                 tuple(saved) if saved is not None else None)


def exchange_source_passages(*, conversation_id: uuid.UUID, exchange_indices: list[int]) -> list[dict]:
    """The ``metadata.synthesis.source_passages`` packets stored with those exchanges' answers, most recent first.

    Precondition: the caller has already checked access to the conversation. Entries are returned as stored;
    the caller validates their bounds.
    """
    messages = (Message.objects.filter(conversation_id=conversation_id, exchange_index__in=exchange_indices,
                                       role=Message.Role.ASSISTANT)
                .order_by("-exchange_index", "-position").only("metadata"))
    packets: list[dict] = []
    for message in messages:
        stored = ((message.metadata or {}).get("synthesis") or {}).get("source_passages")
        packets += [entry for entry in stored if isinstance(entry, dict)] if isinstance(stored, list) else []
    return packets


# -- list screens (admin): an answer's question and excerpt as subqueries, one query per page ----------

EXCERPT_CHARS = 300


def answer_question_subquery(answer_field: str) -> Subquery:
    """The question of the exchange whose answer message id is the outer row's ``answer_field``
    (its first ``EXCERPT_CHARS`` characters)."""
    questions = Message.objects.filter(
        role=Message.Role.USER, conversation__messages__id=OuterRef(answer_field),
        exchange_index=F("conversation__messages__exchange_index"),
    ).order_by("position")
    return Subquery(questions.annotate(excerpt=Substr("content", 1, EXCERPT_CHARS)).values("excerpt")[:1])


def answer_excerpt_subquery(answer_field: str) -> Subquery:
    """The first ``EXCERPT_CHARS`` characters of the answer message whose id is the outer row's ``answer_field``."""
    answers = Message.objects.filter(pk=OuterRef(answer_field))
    return Subquery(answers.annotate(excerpt=Substr("content", 1, EXCERPT_CHARS)).values("excerpt")[:1])
