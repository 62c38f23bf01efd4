"""Publishing an answer: the message pair and its trace in one transaction, then what follows it.

``ExchangePublisher`` is every answer route's; ``NoPublish`` is the
playground's (a trial stores only its receipt, written by its service).
"""
from __future__ import annotations

import logging
from typing import Protocol

from django.conf import settings
from django.db import transaction

from answering.answer.compose import AnswerContext, Composer
from answering.answer.contracts import SEARCH_TOP_K, AnswerCore
from answering.answer.provenance import stored_fields
from answering.artifacts.services import artifacts_persist
from answering.models import AnswerTrace
from answering.telemetry import step_span
from conversations.facade import ExchangeRecord, conversation_mcp_selection_save, exchange_persist
from memory.facade import memory_learn_after_commit

logger = logging.getLogger(__name__)


class Publisher(Protocol):
    def publish(self, context: AnswerContext, composer: Composer, result: AnswerCore, *, total_ms: float) -> None: ...


def answer_metadata(context: AnswerContext, composer: Composer, result: AnswerCore, *, total_ms: float) -> dict:
    """The assistant message's metadata: conversation, retrieval, synthesis, guard and trace."""
    prepared, request = context.prepared, context.prepared.request
    config = settings.ACEH_RAG.retrieval
    return {
        "conversation": {
            "resumed": not prepared.is_new_conversation,
            "history_turns_threaded": result.history.exchanges_in_view,
            "history_truncated": result.history.truncated,
        },
        "retrieval": {
            "semantic_candidate_limit": config.semantic_candidate_limit,
            "lexical_candidate_limit": config.lexical_candidate_limit,
            "rrf_k": config.rrf_k,
            "rerank_candidate_limit": config.rerank_candidate_limit,
            "final_top_k": SEARCH_TOP_K,
            "reranker_enabled": bool(config.rerank_base_url),
            "lexical_arms": result.lexical_tiers,
            "collection_ids": list(request.scope.collection_ids),
            "document_ids": [str(d) for d in request.scope.document_ids],
            "followup": context.evidence.followup_record,
        },
        "synthesis": {**composer.synthesis_metadata(result), **stored_fields(result)},
        "model_call_log": result.model_calls,
        **composer.extra_metadata(result),
        "policy_guard": {
            "mechanism": result.guard.mechanism,
            "action": result.guard.action,
            "categories": list(result.guard.categories),
            "stage": result.guard.stage,
        },
        "trace": {"id": result.trace_id, "route": request.route, "latency_ms": round(total_ms, 2),
                  "followup_documents": followup_documents(context, result)},
        **({"artifacts": [draft.summary() for draft in result.artifacts]} if request.offer_artifacts else {}),
    }


def followup_documents(context: AnswerContext, result: AnswerCore) -> list[dict]:
    """Each document a follow-up carried: whether it reached the ranked (rerank) pool, whether it was cited
    (seed: the answer trace's ``followup_documents``); [] when nothing was carried."""
    cited = {str(p.document_id) for p in result.cited_passages}
    return [{"document_id": document_id, "reached_rerank_pool": document_id in context.evidence.followup_pool,
             "cited": document_id in cited} for document_id in result.followup_document_ids]


class ExchangePublisher:
    def publish(self, context: AnswerContext, composer: Composer, result: AnswerCore, *, total_ms: float) -> None:
        """Store the exchange and its trace, then the chat's MCP selection, then learn memories from it."""
        prepared = context.prepared
        if result.followup_document_ids:     # the trace view's record of the carried documents
            context.steps.note("followup_documents", {"documents": followup_documents(context, result)})
        with step_span("persist"):
            self._persist(context, composer, result, total_ms=total_ms)
        if prepared.sources and prepared.sources.save_mcp_selection is not None:
            conversation_mcp_selection_save(conversation_id=prepared.conversation_id,
                                            mcp_source_ids=prepared.sources.save_mcp_selection)
        if settings.ACEH_RAG.memory.enabled and not result.blocked:
            # After commit, as a task: a memory is learnt from a turn that is stored.
            memory_learn_after_commit(
                owner=prepared.request.owner, question=prepared.request.question,
                source_message_id=prepared.message_id,
                used_confidential_sources=any(p.citation.get("confidential") for p in result.cited_passages),
            )

    @staticmethod
    def _persist(context: AnswerContext, composer: Composer, result: AnswerCore, *, total_ms: float) -> None:
        """Raises ``ConversationNotFound`` / ``ConversationRouteConflict`` (domain errors) from the locked check."""
        prepared, request = context.prepared, context.prepared.request
        record = ExchangeRecord(
            question=request.question, answer=result.answer, source_citations=result.citations,
            assistant_metadata=answer_metadata(context, composer, result, total_ms=total_ms),
        )
        with transaction.atomic():
            exchange_persist(
                owner=prepared.conversation_owner,
                conversation_id=None if prepared.is_new_conversation else prepared.conversation_id,
                new_conversation_id=prepared.conversation_id,
                new_title=request.question,
                route_family=request.route_family,
                record=record,
                assistant_message_id=prepared.message_id,
            )
            if result.artifacts:  # the turn's files, owned like the message
                artifacts_persist(drafts=result.artifacts, conversation_id=prepared.conversation_id,
                                  message_id=prepared.message_id, owner=prepared.conversation_owner)
            if result.trace_id:  # the local, readable copy of the exported trace
                AnswerTrace.objects.create(
                    id=result.trace_id, route=request.route, conversation_id=prepared.conversation_id,
                    message_id=prepared.message_id, total_ms=round(total_ms, 2), steps=context.steps.steps,
                )


class NoPublish:
    """A trial publishes no conversation, message, trace or memory."""

    def publish(self, context: AnswerContext, composer: Composer, result: AnswerCore, *, total_ms: float) -> None:
        return None
