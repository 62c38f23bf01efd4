"""Live data beside the regulations: the planner's rules and tool passages (seed: figure questions).

Both answer paths: a quantity-shaped question reads a configured live source
first (the deterministic path: a matching catalogued workbook, then the
allow-listed CKAN portals, then BPS; the model path is also offered the
tools with their schemas) and falls back to the documents, which are always
searched too. A non-empty document focus never offers these tools. A
successful read becomes a ``kind: "tool"`` passage judged like a chunk.
"""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.conf import settings

from answering.text import content_stems
from answering.extractive.live_match import matching_records, workbook_plan
from answering.live_specs import live_tool_definitions
from answering.types import Passage
from livedata.facade import bps_read
from livedata.facade import opendata_read
from livedata.facade import ToolRead, miss
from livedata.facade import workbook_get_visible, workbooks_visible
from livedata.facade import sql_read
from retrieval.facade import Scope
from livedata.facade import TOOLS as WORKBOOK_TOOLS, workbook_tool_run

if TYPE_CHECKING:
    from answering.llm.agent import ToolResult

QUANTITY = re.compile(
    r"\b(berapa|brp|jumlah|banyaknya|total|persentase|persen|rata-rata|rerata|realisasi|angka|nilai|besaran|"
    r"how (?:much|many)|number of|percentage|average|count|rate)\b", re.I)
NIL = uuid.UUID(int=0)
PASSAGE_NAMESPACE = uuid.UUID("5f0d9a3e-6a53-4c38-9f53-0d7b1f6c2a21")


def is_quantity_question(question: str) -> bool:
    return bool(QUANTITY.search(question))


def tool_passage(read: ToolRead, call: str) -> Passage:
    citation = read.citation(call)
    workbook = read.source.source_id.removeprefix("spreadsheet:") if read.source.source_id.startswith("spreadsheet:") else None
    return Passage(
        chunk_id=uuid.uuid5(PASSAGE_NAMESPACE, f"{call}:{read.source.source_id}:{read.text}"),
        document_id=uuid.UUID(workbook) if workbook else NIL, document_title=read.source.label,
        legal_reference=None, section_path=(), kind="tool", text=read.text, score=1.0,
        citation=citation, origin="tool", key=f"tool:{call}",
    )


def is_tool_passage(passage: Passage) -> bool:
    return passage.citation.get("kind") == "tool"


def stable_label(passage: Passage) -> str:
    """The label a published answer carries for a source, the same on every path: ``chunk:<uuid>`` for an
    indexed passage, ``tool:<call>`` for a tool read (seed: answers carry ``[chunk:<uuid>]``)."""
    return f"tool:{passage.citation['call']}" if is_tool_passage(passage) else f"chunk:{passage.chunk_id}"


def claim_citation(key: str, passage: Passage) -> dict:
    """One claim_map entry: chunk identity for chunks, tool + call for tool reads."""
    if is_tool_passage(passage):
        return {"kind": "tool", "citation_key": key, "tool": passage.citation["tool"], "call": passage.citation["call"],
                "source_id": passage.citation["source_id"]}
    return {"kind": "chunk", "citation_key": key, "chunk_id": str(passage.chunk_id), "document_id": str(passage.document_id)}


@dataclass
class LiveReads:
    """The live-data reads of one answer, run through the answer's step recorder (real progress frames)."""

    steps: object                # answering.answer.steps.StepRecorder
    _request: object             # answering.answer.contracts.AnswerRequest
    reads: list[ToolRead] = field(default_factory=list)

    def offered(self) -> bool:
        return not self._request.scope.document_ids

    def any_workbook(self) -> bool:
        scope = self._request.scope
        return workbooks_visible(principal=self._request.principal,
                                 scope=Scope(collection_ids=scope.collection_ids)).exists()

    def _run(self, tool: str, arguments: dict, work) -> Passage | ToolRead:
        read, call = self.steps.run(tool, arguments, work, summarise=lambda value: value.summary())
        self.reads.append(read)
        return tool_passage(read, call) if read.grounds else read

    # -- the deterministic planner -------------------------------------------------------------

    def passages(self) -> list[Passage]:
        """Figure question + a matching live source → that read's passage first (else nothing)."""
        question = self._request.question
        if not self.offered() or not is_quantity_question(question):
            return []
        config = settings.ACEH_RAG.livedata
        steps = []
        if config.workbooks.enabled:
            steps.append(self._workbook_step)
        if config.opendata.enabled:
            steps.append(lambda q: self._run("opendata_search", {"query": search_terms(q)}, lambda: opendata_read(
                search_terms(q), narrow=lambda fields, records: matching_records(records, q))))
        if config.bps.usable:
            steps.append(lambda q: self._run("bps_indicator", {"query": search_terms(q)}, lambda: bps_read(
                search_terms(q), narrow=lambda rows: matching_records(rows, q))))
        for step in steps:
            found = step(question)
            if isinstance(found, Passage):
                return [found]
        return []

    def _workbook_step(self, question: str):
        scope = self._request.scope
        candidates = workbooks_visible(principal=self._request.principal,
                                       scope=Scope(collection_ids=scope.collection_ids))
        plan = workbook_plan(question, list(candidates[:200]))
        if plan is None:
            return None
        workbook, tool, arguments = plan
        return self._run(tool, {"workbook_id": f"spreadsheet:{workbook.document_id}", **arguments},
                         lambda: workbook_tool_run(tool, workbook, arguments))

    # -- the model path -----------------------------------------------------------------------

    def tools(self, corpus_tools) -> "LiveTools":
        return LiveTools(corpus_tools, self)

    def call(self, name: str, arguments: dict) -> Passage | ToolRead:
        request = self._request
        if name in WORKBOOK_TOOLS:
            workbook_id = arguments.get("workbook_id")
            if name == "workbook_describe" and not workbook_id:
                return self._run(name, arguments, lambda: self._catalogue(arguments.get("query") or ""))
            workbook = workbook_get_visible(principal=request.principal, workbook_id=str(workbook_id or ""),
                                            scope=Scope(collection_ids=request.scope.collection_ids))
            rest = {k: v for k, v in arguments.items() if k != "workbook_id"}
            return self._run(name, arguments, lambda: workbook_tool_run(name, workbook, rest))
        query = arguments.get("query")
        if not isinstance(query, str) or not query.strip():
            return miss(name, arguments, f"Error: {name} needs a non-empty \"query\" string.")
        if name == "sql_query":
            return self._run(name, {"query": query}, lambda: sql_read(query))
        if name == "opendata_search":
            filters = arguments.get("filters") if isinstance(arguments.get("filters"), dict) else None
            return self._run(name, arguments, lambda: opendata_read(query.strip(), filters))
        return self._run(name, {"query": query}, lambda: bps_read(query.strip()))

    def _catalogue(self, query: str) -> ToolRead:
        """workbook_describe without an id: the visible workbooks (best matches first), ids included."""
        request = self._request
        stems = content_stems(query)
        books = list(workbooks_visible(principal=request.principal,
                                       scope=Scope(collection_ids=request.scope.collection_ids))[:200])
        books.sort(key=lambda b: -len(stems & content_stems(b.document.title)))
        lines = [f"workbook_id spreadsheet:{b.document_id}: {b.document.title}"
                 + (f" ({b.period})" if b.period else "") + f"; sheets: {', '.join(s.name for s in b.sheets.all())}"
                 for b in books[:20]]
        if not lines:
            return miss("workbook_describe", {"query": query}, "no catalogued workbook is visible")
        # A listing, not a source: it answers the model but grounds no claim (no citation).
        return ToolRead(tool="workbook_describe", arguments={"query": query}, ok=True, text="\n".join(lines),
                        rows=len(lines))


def search_terms(question: str) -> str:
    """The question's distinctive words for a portal search (no question words, no stop words)."""
    words = [w for w in re.findall(r"[^\W_]+", question) if w.lower() not in QUESTION_WORDS]
    return " ".join(words[:8])


QUESTION_WORDS = frozenset(
    "berapa brp berapakah apa apakah jumlah banyaknya total nilai angka di ke dari pada yang dan untuk tahun "
    "how much many what is the of in for number".split())


@dataclass
class LiveTools:
    """The agent's tools: the corpus tools plus the configured live-data tools (schemas in ``live_specs``)."""

    corpus: object
    live: LiveReads
    _live: list[dict] | None = None

    def _offered(self) -> list[dict]:
        if self._live is None:  # once per answer: the SQL tool's description reads the table list
            self._live = live_tool_definitions(workbooks_visible=self.live.any_workbook()) if self.live.offered() else []
        return self._live

    def definitions(self) -> list[dict]:
        return self.corpus.definitions() + self._offered()

    @property
    def search_in_document(self):  # /query/v2 sets its document tool on the corpus tools
        return self.corpus.search_in_document

    @search_in_document.setter
    def search_in_document(self, value) -> None:
        self.corpus.search_in_document = value

    def call(self, name: str, arguments: dict) -> "ToolResult":
        from answering.llm.agent import ToolResult
        if name not in {d["function"]["name"] for d in self._offered()}:
            return self.corpus.call(name, arguments)
        found = self.live.call(name, arguments)
        if isinstance(found, Passage):
            return ToolResult(passages=[found])
        return ToolResult(text=found.text)
