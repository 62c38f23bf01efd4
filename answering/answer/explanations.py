"""An article read with its official elucidation (Penjelasan).

An Indonesian law often states a figure or a limit only in its Penjelasan: UU 17/2003 Pasal 12 ayat (3) says a
deficit is financed, its Penjelasan that the deficit "dibatasi maksimal 3% dari Produk Domestik Bruto". The
search ranks the article; its Penjelasan, which shares few of the question's words, stays outside the passages
read. So each of the first passages read that holds one article is followed by that article's Penjelasan when
the Penjelasan says something of its own (not "Cukup jelas"); which unit answers is still the unit ranker's to
say (a Penjelasan nobody asked about weighs less there).
"""
from __future__ import annotations

from dataclasses import replace

from answering.types import Passage, passage_from_hit
from retrieval.facade.explanations import explanations_visible
from retrieval.facade.language import covered_articles

EXPLAINED_PASSAGES = 3            # the first passages read whose article's Penjelasan joins them
EXPLANATION_ORIGIN = "explanation"
_EXPLAINED_ORIGINS = frozenset({"search", "anchor", "followup"})


def _article(passage: Passage) -> str | None:
    """The one article a body passage holds ("12", "12A"); None for a range, an amendment's "Pasal I", a list."""
    if passage.kind == "penjelasan" or passage.origin not in _EXPLAINED_ORIGINS:
        return None
    articles = covered_articles(passage.section_path, passage.legal_reference)
    article = next(iter(articles)) if len(articles) == 1 else None
    return article if article and article[0].isdigit() else None


def with_explanations(passages: list[Passage], *, principal, scope) -> list[Passage]:
    """``passages`` with each of the first ones' Penjelasan right after it (access checked by the facade)."""
    wanted = [(p, a) for p in passages[:EXPLAINED_PASSAGES] if (a := _article(p))]
    if not wanted:
        return passages
    found = explanations_visible(principal=principal, scope=scope,
                                 articles=list(dict.fromkeys((p.document_id, a) for p, a in wanted)))
    present = {p.chunk_id for p in passages}
    after: dict = {}
    for passage, article in wanted:
        hit = found.get((passage.document_id, article))
        if hit is not None and hit.chunk_id not in present:
            present.add(hit.chunk_id)
            # A follow-up's article is the conversation's evidence, and so is its elucidation.
            origin = passage.origin if passage.origin == "followup" else EXPLANATION_ORIGIN
            after[passage.chunk_id] = replace(passage_from_hit(hit, origin), score=passage.score)
    if not after:
        return passages
    return [q for p in passages for q in ((p, after[p.chunk_id]) if p.chunk_id in after else (p,))]
