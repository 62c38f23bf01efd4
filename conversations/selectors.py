"""Reads of conversations and messages, always through their owner."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db.models import QuerySet

from answering.history_view import history_view_read
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


def history_window(*, conversation: Conversation | None, max_messages: int = 10, max_chars: int = 8000) -> HistoryWindow:
    """The most recent complete exchanges within the message and character caps.

    With the default cap of ten messages the sixth answer sees all five
    earlier exchanges and the seventh sees five of six (truncated).
    """
    if conversation is None or conversation.pk is None:
        return HistoryWindow((), 0)
    messages = list(
        Message.objects.filter(conversation=conversation, role__in=[Message.Role.USER, Message.Role.ASSISTANT])
        .order_by("-position")[: max_messages + 1]
    )
    prior = (
        Message.objects.filter(conversation=conversation, role=Message.Role.USER)
        .values_list("exchange_index", flat=True).distinct().count()
    )
    messages.reverse()
    exchanges: dict[int, dict] = {}
    for message in messages[-max_messages:]:
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
    while turns and sum(len(t.question) + len(t.answer) for t in turns) > max_chars:
        turns.pop(0)
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
