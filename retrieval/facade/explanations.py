"""The official elucidation (Penjelasan) of the articles an answer reads, through the access predicate."""
from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from kernel.principal import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.models import Document

if TYPE_CHECKING:
    from retrieval.facade import ChunkHit


def explanations_visible(*, principal: Principal, scope: Scope | None,
                         articles: list[tuple[uuid.UUID, str]]) -> dict[tuple[uuid.UUID, str], "ChunkHit"]:
    """For each (document id, article) pair, the visible Penjelasan passage that explains that article and says
    something of its own ("Defisit anggaran dimaksud dibatasi maksimal 3% …", not "Cukup jelas")."""
    from retrieval.facade import chunk_hit
    from retrieval.search.articles import explanation_chunks

    visible = Document.objects.filter(visible_documents_q(principal, scope))
    return {pair: chunk_hit(chunk) for pair, chunk in explanation_chunks(articles, visible).items()}
