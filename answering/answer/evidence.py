"""One gatherer for an answer's evidence: live reads, anchors, follow-up, search arms, closing blocks.

The question is embedded once (inside memory recall or the first search that
needs it, so its span stays where it was) and every later arm reuses the
vector: an answer pays for one embedding of its question however many arms
it runs. Identical arms (query, mode, top_k, principal, scope) run once and
are reused, concurrent tool calls sharing an arm still in flight (arms.py).
Every read goes through the retrieval facade, which checks access itself.
"""
from __future__ import annotations

import uuid
from dataclasses import replace
from itertools import zip_longest

from answering.extractive.anchors import ArticleLocator, asks_for_signatory, find_article
from answering.answer.arms import ArmStore
from answering.answer.contracts import MAX_PASSAGES, SEARCH_TOP_K, Prepared
from answering.answer.explanations import with_explanations
from answering.answer.extensions import extensions_first, with_extensions
from answering.answer.named import NamedDocuments, referent_documents, resolve_named
from answering.answer.restore import restored_passages
from answering.answer.steps import StepRecorder
from answering.extractive.focus import question_focus
from answering.extractive.semantic import SemanticScorer
from answering.extractive.terms import definition_term
from answering.followup import FollowupDecision, followup_model, followup_rule
from answering.legal_status import legal_evidence, surface_search
from answering.live import LiveReads
from answering.mcp_tools import McpReader, inventory_passage
from answering.extractive.synthesis import detect_language
from answering.telemetry import arm_consumed, arm_span
from answering.types import Passage, passage_from_hit
from retrieval import facade
from retrieval.facade import Scope
from retrieval.facade import ChunkSearchResult, QueryVectors, SearchMode
from retrieval.facade.documents import document_facts
from retrieval.facade.language import formal_forms
from workspaces.facade import asks_for_inventory


class EvidenceGatherer:
    """The evidence of one answer. ``surface_legal``: /query/v2 with the legal-relations flag."""

    def __init__(self, prepared: Prepared, steps: StepRecorder, *, models=None, surface_legal: bool = False):
        self.prepared = prepared
        self.request = prepared.request
        self.steps = steps
        self.live = LiveReads(steps, self.request)
        self.mcp = McpReader(steps.run)
        self.legal_notes: list = []          # deciding clauses added to searches (legal_status.py)
        self.followup_record: dict | None = None
        self.followup_pool: frozenset[str] = frozenset()   # documents of the ranked pool a carried follow-up built
        self._models = models
        self._surface_legal = surface_legal
        self._arms: ArmStore[ChunkSearchResult] = ArmStore()
        self._zero_match: set[str] = set()   # the agent's searches that matched none of their terms
        self._vectors = QueryVectors()
        # Named instruments whose text here has no closing block to read (a who-signed question's refusal says so).
        self.unsigned: tuple[str, ...] = ()

    def question_vector(self):
        """The question embedded as a query, once per answer (raises EmbeddingError)."""
        return self._vectors.get(self.request.question)

    # -- what the answer reads first ------------------------------------------------------

    def gather(self) -> list[Passage]:
        sources, request = self.prepared.sources, self.request
        if sources and sources.mcp_only:
            return self.mcp.passages(request.question, sources.mcp, required=True)
        if asks_for_inventory(request.question):
            # Upload-state questions read the live inventory, not the documents' text.
            return [inventory_passage(self.steps.run, principal=request.principal, scope=request.scope,
                                      workspace_id=sources.workspace_id if sources else None,
                                      language=detect_language(request.question))]
        passages = self._document_passages()
        if sources and sources.mcp:
            passages += self.mcp.passages(request.question, sources.mcp, required=False)
        return passages

    def _document_passages(self) -> list[Passage]:
        request = self.request
        question, principal, scope = request.question, request.principal, request.scope
        live = self.live.passages()  # figure questions read a configured live source first
        anchor: list[Passage] = []
        # Once per answer (the follow-up rule reuses it); a signatory question resolves every named instrument.
        named = resolve_named(question, self.steps, principal=principal, scope=scope,
                              every=asks_for_signatory(question))
        anchor_document = named.anchor
        if not named and len(scope.document_ids) == 1:
            anchor_document = facade.document_visible_first(principal=principal, scope=scope)
        followup = self._followup(names_instrument=bool(named))
        if followup.reason == "no_referent":
            return live          # no document is what the question asks about: nothing to read
        locator = find_article(question)
        followup_anchor = False
        if followup.carry and len(followup.document_ids) == 1 and anchor_document is None and not followup.next_article:
            # One earlier document: its anchors (article, closing, focus) are read; the searches stay the question's.
            anchor_document = facade.document_visible_first(principal=principal, scope=scope,
                                                             document_id=uuid.UUID(str(followup.document_ids[0])))
            followup_anchor = anchor_document is not None
        if followup.next_article and not (named or locator):
            # "pasal berikutnya apa?": read the article after the one the previous answer cited.
            anchor_document = facade.document_visible_first(principal=principal, scope=scope,
                                                             document_id=uuid.UUID(str(followup.document_ids[0])))
            locator = ArticleLocator(followup.next_article, None) if anchor_document else None
        if anchor_document and locator:
            anchor += self._read("read_article", {"document_id": str(anchor_document.id), "pasal": locator.pasal,
                                                  "ayat": locator.ayat}, "anchor", facade.article_chunks_visible,
                                 document_id=anchor_document.id, locator=locator)

        followup_scope = None
        if followup.carry:
            # Hints, not filters: one more arm over the carried documents, access and scope rechecked.
            allowed = set(scope.document_ids) if scope.document_ids else None
            carried = [d for d in map(uuid.UUID, followup.document_ids) if allowed is None or d in allowed]
            asked = len(carried)
            carried = with_extensions(carried, principal=principal, scope=scope, allowed=allowed)  # extensions.py
            followup_scope = Scope(collection_ids=scope.collection_ids, document_ids=tuple(carried)) if carried else None

        search_scope = scope
        if anchor_document and not locator and not followup_anchor:
            search_scope = Scope(collection_ids=scope.collection_ids, document_ids=(anchor_document.id,))
        followup_hits = self.search(question, followup_scope, "followup")[0] if followup_scope else []
        main_hits = self.search(question, search_scope, "search")[0]
        if anchor_document and search_scope is not scope and not main_hits:
            main_hits = self.search(question, scope, "search")[0]

        if followup.hints_first and followup_hits:
            # No topic of its own ("kapan diundangkannya?"): the question is about its referent, so other
            # documents' passages (every regulation has an enactment line) are not its evidence.
            carried = set(followup_scope.document_ids)
            ranked = followup_hits + [p for p in main_hits if p.document_id in carried]
        else:
            ranked = [p for pair in zip_longest(main_hits, followup_hits) for p in pair if p is not None]
        self.followup_pool = frozenset(str(p.document_id) for p in ranked) if followup_scope else frozenset()
        # A follow-up's focus ("kapan diundangkannya?") is about the document it refers back to.
        referents = list(followup_scope.document_ids) if followup_scope else []
        ranked = self._focus_hits(anchor_document, ranked, referents) + ranked
        closing = self._closings(named, anchor_document, referents, ranked) if asks_for_signatory(question) else []

        merged: list[Passage] = []
        seen: set[uuid.UUID] = set()
        restored = restored_passages(self.prepared, self.steps, followup) if followup.carry else []
        carried_documents = set(followup_scope.document_ids) if followup_scope else set()
        for passage in [*live, *anchor, *closing, *restored, *ranked]:
            if passage.chunk_id not in seen:
                seen.add(passage.chunk_id)
                # A carried document's passage is the conversation's evidence, whichever arm found it first.
                carried = passage.origin == "search" and passage.document_id in carried_documents
                merged.append(replace(passage, origin="followup") if carried else passage)
        if followup_scope:
            merged = extensions_first(question, merged, list(followup_scope.document_ids), asked)
        # A legal-status question reads the revoking or amending clauses first (answering/legal_status.py).
        read = with_explanations(merged[:MAX_PASSAGES], principal=principal, scope=scope)
        passages = legal_evidence(read, question=question, principal=principal, scope=scope,
                                  surface=False, current_first=True).passages
        present = {p.chunk_id for p in passages}
        return passages + [n.passage for n in self.legal_notes if n.passage.chunk_id not in present]

    def _closings(self, named: NamedDocuments, anchor_document, referents: list[uuid.UUID],
                  ranked: list[Passage]) -> list[Passage]:
        """Each named document's signature block, one read each (its own passages and labels); else one."""
        targets = [d.id for d in named.documents] or [
            anchor_document.id if anchor_document else (
                referents[0] if referents else (ranked[0].document_id if ranked else None))]
        read = {target: self._read("read_closing", {"document_id": str(target)}, "closing",
                                   facade.closing_chunks_visible, document_id=target) for target in targets if target}
        self.unsigned = tuple(d.title for d in named.documents if not read.get(d.id))
        return [passage for passages in read.values() for passage in passages]

    def _read(self, tool: str, arguments: dict, origin: str, read, **where) -> list[Passage]:
        """One facade read of chunks as a reported step."""
        with self.steps.tool(tool, arguments) as call:
            hits = read(principal=self.request.principal, scope=self.request.scope, **where)
            call.summary = {"chunks": len(hits)}
        return [passage_from_hit(hit, origin) for hit in hits]

    def _focus_hits(self, anchor_document, ranked: list[Passage], referents: list[uuid.UUID]) -> list[Passage]:
        """The passage the question's focus needs when ranking missed it: a definition, an enactment block.

        ``referents``: the documents a follow-up carries (most recent first); they lead the ranked ones.
        """
        question = self.request.question
        focus = question_focus(question)
        documents = [anchor_document.id] if anchor_document else list(
            dict.fromkeys([*referents, *(p.document_id for p in ranked)]))
        if focus.kind == "definition" and (term := definition_term(question)):
            return self._read("read_definition", {"term": term}, "anchor", facade.definition_chunks_visible,
                              document_ids=documents, term=term)
        if focus.kind == "about":
            # Only the named instrument's own statement: an amendment that cites it is not what it is about.
            return self._read("read_scope", {"document_id": str(anchor_document.id)}, "anchor",
                              facade.scope_chunks_visible, document_id=anchor_document.id) if anchor_document else []
        if focus.kind in ("enactment", "signatory") and documents:
            return self._read("read_enactment", {"document_id": str(documents[0])}, "anchor",
                              facade.enactment_chunks_visible, document_id=documents[0])
        return []

    def _followup(self, *, names_instrument: bool) -> FollowupDecision:
        """Carry earlier documents only for a genuine follow-up; the decision goes to metadata and the trace."""
        question, history = self.request.question, self.prepared.history
        if self._models and history.turns:
            decision = followup_model(question, history, self._models.judge, self._models.budget,
                                      names_instrument=names_instrument)
        else:
            decision = followup_rule(question, history, names_instrument=names_instrument)
        if not decision.carry and decision.reason == "nothing_cited_before":
            # The earlier answer cited nothing: its question's named instrument is the referent; with none,
            # a question with no topic of its own ("siapa penandatangannya?") has nothing to be about.
            ids = referent_documents(decision.referent_names, self.steps, principal=self.request.principal,
                                     scope=self.request.scope)
            decision = (replace(decision, carry=True, reason="refers_back_to_named", document_ids=ids) if ids
                        else replace(decision, reason="no_referent") if decision.hints_first else decision)
        self.followup_record = decision.record()
        self.steps.note("followup", self.followup_record)
        return decision

    # -- searches (the gatherer's arms and the agent's) ------------------------------------

    def agent_search(self, query: str, scope: Scope) -> tuple[list[Passage], str | None]:
        """The agent's search_documents call: its own wording, then the original-question arm.

        The question's arm runs without its keyword leg (the agent's arm keeps one), once per answer,
        and only adds passages the agent's arm did not return, within the same top_k (seed "Retrieval
        reuse within one answer"). The tier reported is the agent's arm's.
        """
        passages, tier = self.search(query, scope, "agent")
        question = self.request.question
        if query == question or len(passages) >= SEARCH_TOP_K:
            return passages, tier
        original, _ = self.search(question, scope, "question", keyword_leg=False)
        seen = {p.chunk_id for p in passages}
        return (passages + [p for p in original if p.chunk_id not in seen])[:SEARCH_TOP_K], tier

    def search(self, query: str, scope: Scope, origin: str, *, keyword_leg: bool = True
               ) -> tuple[list[Passage], str | None]:
        """Passages of one hybrid arm (run once per answer) and its lexical tier decision."""
        key = (query, SearchMode.HYBRID, SEARCH_TOP_K, self.request.principal, scope, keyword_leg)
        with arm_span(origin) as span:
            found, reused = self._arms.get(key, lambda: self._retrieve(query, scope, origin, keyword_leg))
            arm_consumed(span, reused=reused, passages=len(found.hits))
        if origin == "agent" and found.zero_match:
            self._zero_match.add(query)
        passages = [passage_from_hit(hit, origin) for hit in found.hits]
        if not self._surface_legal:
            return passages, found.lexical_tier
        # Statuses count regulations in the request's scope, not only the (narrower) search's.
        surfaced = surface_search(passages, principal=self.request.principal, scope=self.request.scope)
        self.legal_notes += [n for n in surfaced.clauses if n not in self.legal_notes]
        return surfaced.passages, found.lexical_tier

    def _retrieve(self, query: str, scope: Scope, origin: str, keyword_leg: bool) -> ChunkSearchResult:
        arguments = {"query": query, "mode": SearchMode.HYBRID.value, "top_k": SEARCH_TOP_K}
        if not keyword_leg:
            arguments["keyword_leg"] = False
        if scope.document_ids:
            arguments["document_ids"] = [str(d) for d in scope.document_ids]
        if scope.collection_ids:
            arguments["collection_ids"] = list(scope.collection_ids)
        with self.steps.tool("search_documents", arguments) as call:
            found = facade.chunks_search(principal=self.request.principal, query=query, mode=SearchMode.HYBRID,
                                         top_k=SEARCH_TOP_K, scope=scope, vectors=self._vectors,
                                         keyword_leg=keyword_leg, one_copy=False)   # both copies: copies.py
            call.summary = {"passages": len(found.hits), "lexical_tier": found.lexical_tier}
        self.steps.lexical_tiers.append({"origin": origin, "tier": found.lexical_tier, "query": query})
        return found

    def zero_matched(self, query: str) -> bool:
        """Whether the agent's search for ``query`` (as the tool received it) matched none of its terms."""
        from answering.llm.tools import MAX_QUERY_CHARS
        return query.strip()[:MAX_QUERY_CHARS] in self._zero_match

    def count_all_terms(self, document_id: str, query: str) -> int:
        """Precondition: ``document_id`` is a UUID's text (the agent's argument, reported as given)."""
        with self.steps.tool("count_all_terms", {"document_id": document_id, "query": query}) as call:
            count = facade.chunk_count_with_all_terms_visible(
                principal=self.request.principal, scope=self.request.scope, document_id=uuid.UUID(document_id),
                query=query)
            call.summary = {"passages_with_every_term": count}
        return count

    def facts(self, **filters) -> dict:
        with self.steps.tool("corpus_facts", filters) as call:
            facts = document_facts(principal=self.request.principal, scope=self.request.scope, **filters)
            call.summary = {"documents": facts["documents"]}
        return facts

    def semantic(self) -> SemanticScorer:
        """The question against answer units and passages, with the question vector the searches use."""
        return SemanticScorer(self.question_vector)

    def absent_words(self, words: list[str]) -> list[str]:
        # A colloquial verb ("nanggepin") is present when the law's form of it is (retrieval/search/colloquial.py).
        return self.steps.step("corpus_terms", lambda: facade.words_absent_from_visible(
            words, principal=self.request.principal, scope=self.request.scope, forms=formal_forms))
