"""The instruments a question names, each resolved to its one visible document (seed: "Named regulations").

The first named instrument is the answer's anchor (its articles are read, the
search is scoped to it). A signatory question naming several ("Siapa yang
menandatangani Qanun 6/2014 dan Pergub 60/2013?") needs every one of them: each
resolved document's closing block is read as its own step, so each keeps its own
passages and citation labels even when two closings print the same words.
At most ``MAX_NAMED_DOCUMENTS`` instruments are looked up (the seed's browse limit).
"""
from __future__ import annotations

from dataclasses import dataclass

from answering.extractive.anchors import NamedRegulation, find_named_regulations
from answering.answer.steps import StepRecorder
from kernel.principal import Principal
from retrieval import facade
from retrieval.facade import DocumentRef, Scope
from retrieval.facade.language import RESOLVE_BROWSE_LIMIT

MAX_NAMED_DOCUMENTS = RESOLVE_BROWSE_LIMIT


@dataclass(frozen=True)
class NamedDocuments:
    named: tuple[NamedRegulation, ...]       # in the question's order
    anchor: DocumentRef | None               # the first named instrument's document, when it resolved
    documents: tuple[DocumentRef, ...]       # every resolved one, distinct, the question's order

    def __bool__(self) -> bool:
        return bool(self.named)


def _resolve(regulation: NamedRegulation, steps: StepRecorder, *, principal: Principal,
             scope: Scope) -> DocumentRef | None:
    """One named instrument's visible document, as a ``resolve_regulation`` step."""
    with steps.tool("resolve_regulation", {"name": regulation.text}) as call:
        document = facade.regulation_resolve(regulation, principal=principal, scope=scope)
        call.summary = ({"document_id": str(document.id), "title": document.title}
                        if document else {"resolved": False})
    return document


def resolve_named(question: str, steps: StepRecorder, *, principal: Principal, scope: Scope,
                  every: bool) -> NamedDocuments:
    """The first named instrument's document; with ``every``, the others' too (one step each)."""
    named = find_named_regulations(question)[:MAX_NAMED_DOCUMENTS]
    resolved = [_resolve(regulation, steps, principal=principal, scope=scope)
                for regulation in (named if every else named[:1])]
    documents = tuple({d.id: d for d in resolved if d is not None}.values())
    return NamedDocuments(named, resolved[0] if resolved else None, documents)


def referent_documents(named: tuple[NamedRegulation, ...], steps: StepRecorder, *, principal: Principal,
                       scope: Scope) -> tuple[str, ...]:
    """The documents of the instruments earlier questions named (a follow-up whose earlier answer cited
    nothing), most recent first."""
    ids: list[str] = []
    for regulation in named[:MAX_NAMED_DOCUMENTS]:
        document = _resolve(regulation, steps, principal=principal, scope=scope)
        if document and str(document.id) not in ids:
            ids.append(str(document.id))
    return tuple(ids)


def named_outside_selection(question: str, *, principal: Principal, scope: Scope) -> bool:
    """``source_out_of_scope``: the question names regulations, none of them resolves inside the selection
    ``scope``, and at least one resolves to a document the caller may read outside it. Without a selection,
    or when a named regulation is not indexed at all, this is never the case."""
    named = find_named_regulations(question)[:MAX_NAMED_DOCUMENTS]
    if not named or not scope.selected:
        return False
    if any(facade.regulation_resolve(r, principal=principal, scope=scope) for r in named):
        return False
    return any(facade.regulation_resolve(r, principal=principal, scope=Scope()) for r in named)
