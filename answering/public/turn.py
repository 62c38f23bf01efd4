"""One public chat turn through /query's pipeline (``query_pipeline``), as the widget protocol's events.

The visitor is an anonymous principal, so the access predicate shows only
documents without any restriction; guard and faithfulness run as on every
answer route. The reply is revealed only after the pipeline finished
(buffer-then-reveal), like ``/query/stream``.
"""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import AsyncIterator

from kernel.principal import ANONYMOUS
from kernel.connections import DATABASE_UNAVAILABLE_ERRORS, DatabaseUnavailable, log_database_unavailable
from kernel.limits import Overloaded
from answering.answer.contracts import AnswerCancelled, AnswerCore, AnswerRequest
from answering.runner import StreamedAnswer
from answering.public.services import VisitorIdentity, suggestions_for
from answering.sse import answer_deltas
from answering.extractive.synthesis import detect_language
from answering.live import stable_label
from kernel.error_table import error_kind
from kernel.errors import Conflict, DomainError, NotFound, PayloadTooLarge
from retrieval.facade import Scope

ROUTE = "/api/public/rag/chat"

# The pipeline's real steps (tool.started) as the protocol's phase names; names
# other than the seed's "finalizing" are additive, and clients ignore unknown ones.
PHASE_BY_TOOL = {
    "search_documents": "searching",
    "resolve_regulation": "reading",
    "read_article": "reading",
    "read_closing": "reading",
    **dict.fromkeys(("workbook_rows", "workbook_compute", "opendata_search", "bps_indicator"), "reading"),
}
FINALIZING = "finalizing"

# What a visitor is told of a failed answer, by the public code of its error (kernel.error_table):
# fixed words, never the internal message.
VISITOR_MESSAGES = {
    "UPSTREAM_ERROR": "A service the answer depends on failed; please try again",
    "UNAVAILABLE": "The answer service is busy; please try again",
}
QUESTION_TOO_LONG = "The question is too long"
ANSWER_FAILED = "The answer could not be completed"


class PublicConversationNotFound(NotFound):
    code = "conversation_not_found"

    def __init__(self) -> None:
        super().__init__("Conversation not found")


class NoPublicContent(NotFound):
    code = "no_content"

    def __init__(self) -> None:
        super().__init__("No public documents are available to answer questions yet")

_LABEL = re.compile(r"\s?\[(chunk:[0-9a-f-]{36}|tool:call_\d+|P\d+)\]")


def reply_with_numbered_sources(answer: str, labels: list[str]) -> str:
    """Replace the answer's passage labels (``[chunk:<id>]``, ``[tool:<call>]``; ``[P1]`` in answers stored
    before #31) with ``[n]``, n = position in ``sources`` (``labels``: the cited passages' stable labels in that
    order, ``answering.live.stable_label``)."""
    numbers = {label: index for index, label in enumerate(labels, start=1)}

    def number(match: re.Match) -> str:
        found = numbers.get(match.group(1))
        return f" [{found}]" if found else ""

    return _LABEL.sub(number, answer)


def database_unavailable(exc: Exception) -> DatabaseUnavailable:
    """The expected fault, logged as one line."""
    log_database_unavailable(ROUTE, exc)
    return DatabaseUnavailable()


@dataclass(frozen=True)
class PublicTurn:
    question: str
    identity: VisitorIdentity
    conversation_id: uuid.UUID | None


@dataclass(frozen=True)
class Phase:
    name: str


@dataclass(frozen=True)
class ReplyDelta:
    text: str


@dataclass(frozen=True)
class PublicAnswer:
    reply: str
    conversation_id: uuid.UUID
    identity: VisitorIdentity
    sources: list[dict]          # citation objects, numbered by the reply's [n] markers
    route_reason: str            # "grounded" or the pipeline's fallback reason
    suggestions: list[str]


class PublicChatRun:
    """One turn: ``prepare`` (errors before anything streams), then ``events``."""

    def __init__(self, turn: PublicTurn):
        self.turn = turn
        self._streamed = StreamedAnswer(AnswerRequest(
            question=turn.question, principal=ANONYMOUS, owner=turn.identity.owner,
            conversation_id=turn.conversation_id, scope=Scope(), route=ROUTE, route_family="query",
        ))

    def _error(self, exc: DomainError) -> DomainError:
        """What the visitor is told of a failed answer: the same code (so the same status), visitor's words."""
        if isinstance(exc, Overloaded):
            return exc
        if isinstance(exc, (NotFound, Conflict)) and self.turn.conversation_id is not None:
            # Unknown, another visitor's and another route's conversations look alike to a visitor.
            return PublicConversationNotFound()
        if isinstance(exc, NotFound):
            return NoPublicContent()
        if isinstance(exc, PayloadTooLarge):
            return DomainError(QUESTION_TOO_LONG, code=exc.code)
        return DomainError(VISITOR_MESSAGES.get(error_kind(exc).public, ANSWER_FAILED), code=exc.code)

    async def prepare(self) -> None:
        try:
            await self._streamed.prepare()
        except DomainError as exc:
            raise self._error(exc) from exc
        except DATABASE_UNAVAILABLE_ERRORS as exc:
            raise database_unavailable(exc) from None

    async def events(self) -> AsyncIterator[Phase | ReplyDelta | PublicAnswer]:
        """Phases while the pipeline works, then the guarded reply in deltas, ``finalizing``, the answer.

        Precondition: ``prepare`` succeeded. Raises a ``DomainError`` in the visitor's words when the answer fails.
        """
        last = None
        try:
            async for item in self._streamed.run():
                if isinstance(item, AnswerCore):
                    result = item
                    break
                name, data = item
                phase = PHASE_BY_TOOL.get(data.get("tool", "")) if name == "tool.started" else None
                if phase and phase != last:
                    last = phase
                    yield Phase(phase)
            else:
                return
        except DomainError as exc:
            raise self._error(exc) from exc
        except DATABASE_UNAVAILABLE_ERRORS as exc:
            raise database_unavailable(exc) from None
        except AnswerCancelled:
            return  # only after our own cancel flag: nobody is listening any more
        citations = list(result.citations)
        reply = reply_with_numbered_sources(result.answer, [stable_label(passage) for passage in result.cited_passages])
        for text in answer_deltas(reply):
            yield ReplyDelta(text)
        yield Phase(FINALIZING)
        suggestions = [] if result.blocked else suggestions_for(
            question=self.turn.question, sources=citations, language=detect_language(self.turn.question))
        yield PublicAnswer(
            reply=reply, conversation_id=result.conversation_id, identity=self.turn.identity,
            sources=citations, route_reason=result.fallback_reason or "grounded", suggestions=suggestions,
        )
