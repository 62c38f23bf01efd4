"""Fixed system copy for refusals (never a model's or a server's own error text)."""
from __future__ import annotations

REFUSAL_NOTICES = {
    "context_budget_exhausted": {
        "id": "Maaf, sumber yang diperlukan untuk pertanyaan ini tidak muat dalam kapasitas konteks model, sehingga "
              "jawaban tidak ditulis dan tidak diperiksa. Silakan persempit pertanyaan atau pilih lebih sedikit dokumen.",
        "en": "Sorry, the sources this question needs do not fit the model's context capacity, so no answer was "
              "written or checked. Please narrow the question or select fewer documents.",
    },
    "agent_output_limit": {
        "id": "Maaf, jawaban untuk pertanyaan ini terlalu panjang untuk ditulis sekaligus. Silakan tanyakan satu "
              "bagian dari pertanyaan Anda.",
        "en": "Sorry, the answer to this question is too long to write at once. Please ask about one part of it.",
    },
    "could_not_answer_in_time": {   # /query/v2's agent_output_limit: a follow-up's forced search round ran out
        "id": "Maaf, pertanyaan lanjutan ini tidak dapat dijawab tepat waktu: pencarian sumbernya tidak selesai "
              "ditulis. Silakan coba lagi, atau tanyakan satu bagian dari pertanyaan Anda.",
        "en": "Sorry, this follow-up could not be answered in time: the search for its sources could not be "
              "written out. Please try again, or ask about one part of the question.",
    },
    "query_budget_exhausted": {
        "id": "Maaf, pencarian untuk pertanyaan ini mencapai batas pemrosesan sebelum jawaban selesai. Silakan "
              "persempit pertanyaan.",
        "en": "Sorry, the search for this question reached its processing limit before the answer was finished. "
              "Please narrow the question.",
    },
    "model_timeout": {
        "id": "Maaf, jawaban tidak dapat diselesaikan dalam batas waktu. Silakan coba lagi atau persempit pertanyaan.",
        "en": "Sorry, the answer could not be finished in time. Please try again or narrow the question.",
    },
    "mcp_source_unavailable": {
        "id": "Maaf, sumber MCP yang dipilih untuk percakapan ini tidak dapat dihubungi, sehingga pertanyaan tidak "
              "dapat dijawab. Silakan coba lagi nanti.",
        "en": "Sorry, the MCP source selected for this chat could not be reached, so the question cannot be "
              "answered. Please try again later.",
    },
    "source_out_of_scope": {   # the question names a regulation the chat's selection excludes
        "id": "Maaf, peraturan yang Anda sebut tidak termasuk sumber yang dipilih untuk percakapan ini, sehingga "
              "pertanyaan ini tidak dijawab dari sumber lain. Tambahkan peraturan itu ke sumber yang dipilih, atau "
              "ajukan pertanyaan tanpa memilih sumber.",
        "en": "Sorry, the regulation you name is not among the sources selected for this chat, so the question is "
              "not answered from other sources. Add that regulation to the selected sources, or ask without a "
              "selection.",
    },
    "source_scope_unavailable": {   # the selection holds readable documents, but reading them failed this turn
        "id": "Maaf, sumber yang dipilih untuk percakapan ini tidak dapat dibaca saat ini, sehingga pertanyaan "
              "tidak dapat dijawab. Silakan coba lagi nanti.",
        "en": "Sorry, the sources selected for this chat cannot be read right now, so the question cannot be "
              "answered. Please try again later.",
    },
    "unparseable_completion": {
        "id": "Maaf, jawaban tidak dapat disusun dalam format yang dapat diverifikasi, sehingga tidak ditampilkan. "
              "Silakan coba lagi.",
        "en": "Sorry, the answer could not be produced in a verifiable form, so it is not shown. Please try again.",
    },
    "empty_completion": {
        "id": "Maaf, model tidak menghasilkan jawaban untuk pertanyaan ini. Silakan coba lagi.",
        "en": "Sorry, the model produced no answer to this question. Please try again.",
    },
    "unverified_no_claims": {
        "id": "Maaf, jawaban tidak mencantumkan sumber dan tidak dapat diverifikasi terhadap dokumen yang "
              "ditampilkan, sehingga tidak ditampilkan. Silakan coba lagi atau persempit pertanyaan.",
        "en": "Sorry, the answer named no source and could not be verified against the documents shown, so it is "
              "not shown. Please try again or narrow the question.",
    },
    "unresolved_citation": {
        "id": "Maaf, sumber yang dirujuk jawaban tidak dapat ditemukan di antara dokumen yang ditampilkan, sehingga "
              "jawaban tidak ditampilkan. Silakan coba lagi.",
        "en": "Sorry, the sources the answer refers to are not among the documents shown, so the answer is not "
              "shown. Please try again.",
    },
}
QUESTION_TOO_LARGE = "The question and conversation history do not fit the answer model's context window."


def refusal_notice(reason: str, language: str) -> str:
    texts = REFUSAL_NOTICES[reason]
    return texts.get(language, texts["id"])
