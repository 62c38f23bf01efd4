"""manage.py reembed: vectors rebuilt from the contextual text, progress printed, readiness restored."""
import io

import numpy as np
import pytest
from django.core.management import call_command

from retrieval.embedders import get_embedder
from retrieval.models import Chunk
from tests.factories import make_document


@pytest.mark.django_db
def test_reembed_restores_the_configured_model_and_the_ingestion_vectors(client):
    document = make_document(title="Qanun Zakat", chunks=["Zakat profesi dibayar setiap bulan.", "Infak bersifat sukarela."])
    make_document(title="Qanun Lain", chunks=["Pajak air permukaan."])
    original = {c.id: np.array(c.embedding) for c in Chunk.objects.filter(document=document)}
    # Given one document's vectors from another model (as after a model change).
    Chunk.objects.filter(document=document).update(embedding=[0.0] * 383 + [1.0], embedding_model="old-model")
    stale = client.get("/readyz")
    assert stale.status_code == 503 and "old-model" in stale.content.decode()
    out, progress = io.StringIO(), io.StringIO()
    call_command("reembed", "--stale-only", stdout=out, stderr=progress)
    # Progress goes to stderr (a bar on a terminal, lines otherwise); the result to stdout.
    assert progress.getvalue().startswith(f"[1/1 documents] {len(original)} chunks re-embedded")
    assert out.getvalue().splitlines()[-1] == f"done: 1 documents, {len(original)} chunks"
    model = get_embedder().model_name
    for chunk in Chunk.objects.filter(document=document):
        assert chunk.embedding_model == model
        assert np.allclose(np.array(chunk.embedding), original[chunk.id], atol=1e-5)
    assert client.get("/readyz").status_code == 200
    # Without --stale-only every indexed document is done.
    out = io.StringIO()
    call_command("reembed", stdout=out)
    assert out.getvalue().splitlines()[-1] == f"done: 2 documents, {Chunk.objects.count()} chunks"
