"""What named-regulation anchoring changes in an answer's evidence, measured offline.

Seed (query-search-api, "What the keyword search tells the agent about the match"): the
comparison runs the production answer service with a fake agent, compares ordered chunk
identities and complete evidence text on one fixture, and fails on non-named changes.

The fixture is a handful of real regulations from ../shared/corpus (ingested into this
script's own embedded database, var/measure-named) and questions written by reading them:
some name their instrument ("Pasal 4 Pergub Aceh Nomor 25 Tahun 2025", "UU 23/2011"),
some do not. Each question is answered twice by the /query pipeline on the model path,
against a fake OpenAI-compatible agent on loopback that records what it was shown and
declines: once as shipped, once with named-regulation resolution switched off (the
baseline; the search's own document-label nominations stay on in both runs). Per question it compares the evidence the agent was shown first: the ordered
chunk identities the gatherer returned and the complete text of every passage block.

A question that names no instrument must get identical evidence both ways: any change is a
named-anchor false positive and makes the exit status 1. For a named question it reports the
resolved document, the passages anchoring added, and the share of evidence from that document.

Run: .venv/bin/python scripts/measure_named_anchor_retrieval.py
"""
from __future__ import annotations

import json
import re
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from _fake_model import FakeChat, serve, system_prompt  # noqa: E402
from _setup import CORPUS, django_setup  # noqa: E402

FIXTURE = [
    "txt/pergub-aceh-24-2025-tenaga-profesional-baitul-mal-aceh.txt",
    "txt/pergub-aceh-25-2025-pembebasan-pajak-atas-kendaraan-bermotor.txt",
    "txt/pergub-aceh-12-2025-partisipasi-masyarakat-dalam-pembangunan.txt",
    "txt/qanun-aceh-4-2025-pelindungan-hak-perempuan.txt",
    "txt/qanun-aceh-12-2025-perubahan-atas-qanun-aceh-nomor-6-tahun-2014-tentang-hukum-jinayat.txt",
    "txt/uu-23-2011-pengelolaan-zakat.txt",
    "txt/uu-14-2008-keterbukaan-informasi-publik.txt",
    # Two more motor-vehicle-tax Pergubs of the same year: named questions must pick theirs among look-alikes.
    "txt/pergub-aceh-32-2025-dasar-pengenaan-pajak-kendaraan-bermotor-dan-bea-balik-nama-kendaraan.txt",
    "txt/pergub-aceh-4-2025-dasar-pengenaan-pajak-kendaraan-bermotor-dan-bea-balik-nama-kendaraan.txt",
]
# (question, the document its named instrument should resolve to: a fixture path, None when it must not
# resolve, or "" for a question that names no instrument)
QUESTIONS = [
    ("Apa isi Pasal 4 Peraturan Gubernur Aceh Nomor 25 Tahun 2025?", FIXTURE[1]),
    ("Siapa yang menandatangani Pergub Aceh 25/2025?", FIXTURE[1]),
    ("Apa syarat calon Tenaga Profesional menurut Pergub Aceh Nomor 24 Tahun 2025?", FIXTURE[0]),
    ("Pasal 2 UU 23/2011 menyebut asas apa saja?", FIXTURE[5]),
    ("Menurut Undang-Undang Nomor 14 Tahun 2008, apa saja informasi yang dikecualikan?", FIXTURE[6]),
    ("Apa tujuan Qanun Aceh Nomor 4 Tahun 2025.", FIXTURE[3]),
    # Only its amendment is indexed: the amendment must not take the named Qanun's identity.
    ("Apa yang diatur Qanun Aceh Nomor 6 Tahun 2014 tentang hukum jinayat?", None),
    ("Objek PKB apa yang dikecualikan menurut Pasal 4 Pergub Aceh Nomor 32 Tahun 2025?", FIXTURE[7]),
    ("Bagaimana dasar pengenaan pajak kendaraan bermotor dalam Peraturan Gubernur Aceh Nomor 4 Tahun 2025?",
     FIXTURE[8]),
    ("Siapa yang berhak mendapat pembebasan pajak kendaraan bermotor?", ""),
    ("Apa saja hak perempuan korban kekerasan di Aceh?", ""),
    ("Bagaimana masyarakat ikut serta dalam perencanaan pembangunan Aceh?", ""),
    ("Apa syarat menjadi tenaga profesional di Baitul Mal?", ""),
    ("Pasal 10 mengatur apa?", ""),
    ("Apa yang diatur qanun tentang pelindungan hak perempuan?", ""),
    ("Kendaraan apa saja yang dikecualikan dari objek pajak kendaraan bermotor?", ""),
    ("Siapa yang wajib membayar zakat dan ke mana?", ""),
]
BLOCK = re.compile(r'<passage key="(P\d+)" document_id="([^"]+)"[^>]*>\n(.*?)\n</passage>', re.S)


class FakeAgent(FakeChat):
    """Records the agent's first request of an answer, and declines."""

    shown: list[str] = []

    def reply(self, body: dict) -> tuple[dict, str]:
        system = system_prompt(body)
        if system.startswith("You check an answer that cites no passage label"):
            return {"content": json.dumps({"asserts_facts": False})}, "stop"
        if system.startswith("You decide whether"):
            return {"content": json.dumps({"answers_question": False, "unmet": [], "follow_up": False})}, "stop"
        if system.startswith("You are a strict faithfulness judge"):
            return {"content": json.dumps({"verdicts": []})}, "stop"
        if not any(m["role"] == "tool" for m in body["messages"]):
            FakeAgent.shown.append(body["messages"][-1]["content"])
        return {"content": "Informasi tersebut tidak ditemukan dalam dokumen yang tersedia."}, "stop"


def ingest_fixture() -> dict[str, str]:
    """Fixture path -> document id (ingested once; re-runs find them by source key)."""
    from django.core.management import call_command

    from retrieval.ingestion import source_key_for
    from retrieval.models import Document

    paths = [CORPUS / relative for relative in FIXTURE]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        sys.exit(f"the shared corpus is missing: {', '.join(missing)}")
    call_command("ingest", *map(str, paths), collection="MEASURE", verbosity=0)
    ids = {}
    for relative, path in zip(FIXTURE, paths):
        document = Document.objects.get(source_key=source_key_for("MEASURE", path.name), status="indexed")
        ids[relative] = str(document.id)
    return ids


RESOLVED: list[str] = []     # document ids the last answer's resolve_regulation steps found


def answer_evidence(question: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(ordered (chunk id, origin) the gatherer returned, ordered (document id, text) blocks the agent saw)."""
    from answering.answer import evidence as evidence_module
    from answering.answer.contracts import AnswerRequest
    from answering.answer.pipeline import query_pipeline
    from kernel.principal import Principal
    from retrieval.facade import Scope

    gathered: list[tuple[str, str]] = []
    original = evidence_module.EvidenceGatherer.gather

    def recording(self):
        passages = original(self)
        gathered.extend((str(p.chunk_id), p.origin) for p in passages)
        RESOLVED[:] = [c.summary["document_id"] for c in self.steps.calls
                       if c.tool == "resolve_regulation" and "document_id" in (c.summary or {})]
        return passages

    evidence_module.EvidenceGatherer.gather = recording
    FakeAgent.shown.clear()
    try:
        request = AnswerRequest(question=question, principal=Principal(), owner=f"measure-{uuid.uuid4().hex}",
                                conversation_id=None, scope=Scope.from_request(None, None))
        pipeline = query_pipeline()
        pipeline.run(pipeline.prepare(request))
    finally:
        evidence_module.EvidenceGatherer.gather = original
    shown = [(document_id, text) for _, document_id, text in BLOCK.findall(FakeAgent.shown[0])] if FakeAgent.shown else []
    return gathered, shown


def without_named_resolution():
    """The baseline: the gatherer resolves no named instrument (its anchor reads and scoping are off)."""
    from answering.answer import evidence as evidence_module
    from answering.answer.named import NamedDocuments

    shipped = evidence_module.resolve_named
    evidence_module.resolve_named = lambda question, steps, **kwargs: NamedDocuments((), None, ())
    return lambda: setattr(evidence_module, "resolve_named", shipped)


def main() -> int:
    _, url = serve(FakeAgent)
    django_setup(data_dir="var/measure-named", ACEH_RAG_LLM__BASE_URL=url,
                 ACEH_RAG_LLM__MODEL="fake", ACEH_RAG_LLM__MAX_RETRIES="0")
    from answering.extractive.anchors import find_named_regulations

    ids = ingest_fixture()
    title_of = {doc_id: Path(path).stem[:48] for path, doc_id in ids.items()}
    shipped_runs, resolved = {}, {}
    for question, _ in QUESTIONS:
        shipped_runs[question] = answer_evidence(question)
        resolved[question] = list(RESOLVED)
    restore = without_named_resolution()
    try:
        baseline_runs = {q: answer_evidence(q) for q, _ in QUESTIONS}
    finally:
        restore()

    failures, named_lines, plain_lines = [], [], []
    for question, expected in QUESTIONS:
        (chunks, shown), (base_chunks, base_shown) = shipped_runs[question], baseline_runs[question]
        detected = bool(find_named_regulations(question))
        same = chunks == base_chunks and shown == base_shown
        if expected == "":
            plain_lines.append(f"  {'same   ' if same else 'CHANGED'}  {len(chunks):2d} passages  {question}")
            if not same or detected:
                failures.append(f"a question naming no instrument changed: {question!r}")
            continue
        target = ids.get(expected) if expected else None
        from_target = sum(1 for document_id, _ in shown if document_id == target) if target else 0
        anchors = [origin for _, origin in chunks if origin in ("anchor", "closing")]
        added = len([c for c in chunks if c not in base_chunks])
        found = resolved[question][0] if resolved[question] else None
        named_lines.append(
            f"  {question}\n      expects {title_of.get(target, 'no resolution')}, resolved "
            f"{title_of.get(found, found) if found else 'none'}; anchors {len(anchors)} "
            f"({', '.join(sorted(set(anchors))) or '-'}), new vs baseline {added}/{len(chunks)}, "
            f"from the named document {from_target}/{len(shown)} (baseline "
            f"{sum(1 for d, _ in base_shown if d == target) if target else 0}/{len(base_shown)})")
        if found != target:
            failures.append(f"resolved {found} instead of {target}: {question!r}")
        if expected is None and (anchors or not same):
            failures.append(f"an amendment took the named instrument's identity: {question!r}")
        if target and not anchors and from_target == 0:
            failures.append(f"the named instrument contributed no evidence: {question!r}")

    print(f"named-anchor retrieval on {len(FIXTURE)} regulations, {len(QUESTIONS)} questions "
          f"(shipped vs named resolution off, same run)")
    print("questions naming an instrument:")
    print("\n".join(named_lines))
    print("questions naming none (evidence must be identical):")
    print("\n".join(plain_lines))
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("ok: no question naming no instrument changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
