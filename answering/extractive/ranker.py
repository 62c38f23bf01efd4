"""Which unit answers: a logistic model over a unit's signals, fitted on gold evidence and frozen.

Every unit of the passages read gets one feature vector (``unit_features``):
its meaning (the question's multilingual-e5 cosine with the unit and with its
passage), its words (the share of the question's content stems it carries),
where it stands (its passage's retrieval rank, a named article, its position
in the passage), what the question asks for (the focus bonus: a definition
for a definition question, a date for "kapan", a figure for "berapa") and
what kind of text it is (a signature block, a Penjelasan, a considerations
line, an appendix row, a penal clause nobody asked about, a definition of the
general-provisions article when no definition is asked, a list, a fragment)
and, for a figure asked as a limit, whether it states a limit of that direction.

``manage.py fit_answerability --units`` fits the weights on the training part
of ``../shared/quality/`` and the project's own answer set (each unit labelled
by whether it states a gold evidence) and writes ``unit_ranker.json`` beside
this module. A unit's score is the model's logit (a softmax over the
question's units: scores compare units of one question); selection keeps the
units near the best one. Under another embedder (the tests' hashing vectors) the
semantic features sit at their training means, as in the answerability
decision.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from answering.extractive.answerability import GENERIC_STEMS
from answering.extractive.decision import linear_score
from answering.extractive.focus import LIST_LEAD_SHARED, focus_bonus, list_lead_shared
from answering.extractive.quantities import states_bound
from answering.extractive.question import Question, first_ask
from answering.types import Passage

PARAMS_PATH = Path(__file__).with_name("unit_ranker.json")
FEATURES = ("semantic", "passage_semantic", "overlap", "rank", "anchor", "position", "focus", "penal_unasked",
            "closing_unasked", "penjelasan_unasked", "preamble", "lampiran", "list", "short", "normative", "bound",
            "definition_unasked")
SEMANTIC = frozenset({"semantic", "passage_semantic"})
# An English question the glossary reads nothing of shares no words with the corpus: held at the mean.
LEXICAL = frozenset({"overlap"})
# A penal provision punishes ("… dipidana dengan pidana penjara …", "… diancam pidana kurungan …", "dikenai sanksi
# pidana"); a requirement that names a sentence ("tidak pernah dijatuhi pidana penjara … tindak pidana yang diancam
# dengan pidana penjara paling singkat 5 tahun", a village head candidate's list) punishes no one.
PENAL = re.compile(r"\bdipidana\b|(?<!yang )\bdiancam\s+(?:dengan\s+)?pidana\b|"
                   r"\b(?:dikenai|dikenakan)\s+sanksi\s+pidana\b", re.I)
ASKS_SANCTION = re.compile(r"\b(?:sanksi|pidana|dipidana|denda|hukuman|dihukum|penjara|kurungan|ancaman|penalt\w*|"
                           r"fine[sd]?|punish\w*|prison|jail)\b", re.I)
ASKS_EXPLANATION = re.compile(r"\b(?:penjelasan|dijelaskan|explanat\w*|elucidat\w*)\b", re.I)
CLOSING_ASKS = frozenset({"enactment", "signatory", "date", "status"})
NORMATIVE = re.compile(r"\b(wajib|diwajibkan|kewajiban|harus|dilarang|larangan|boleh|berhak|sanksi|denda|must|shall|"
                       r"required|prohibited|allowed)\b", re.I)
SHORT_CHARS = 60
# The general-provisions article ("Pasal 1") defines every term the regulation uses, so it carries the question's
# words and meaning whatever is asked: "X adalah …", "yang dimaksud dengan X …".
DEFINES = re.compile(r"\b(?:adalah|ialah|yang\s+dimaksud\s+dengan)\b", re.I)
DEFINITIONS_ARTICLE = re.compile(r"\bPasal\s+1\b(?![\dA-Z])")
DEFINITION_ASKS = frozenset({"definition", "about"})


@dataclass(frozen=True)
class RankerParams:
    weights: dict[str, float]
    intercept: float
    means: dict[str, float]
    scales: dict[str, float]
    embedding_model: str

    @classmethod
    def read(cls, path: Path = PARAMS_PATH) -> "RankerParams":
        raw = json.loads(path.read_text())
        return cls(weights=raw["weights"], intercept=raw["intercept"], means=raw["means"], scales=raw["scales"],
                   embedding_model=raw["embedding_model"])


@functools.lru_cache(maxsize=1)
def frozen_ranker() -> RankerParams:
    return RankerParams.read()


def unit_features(question: Question, text: str, passage: Passage, rank: int, position: int, kind: str, *,
                  overlap: float, closing: bool, semantic: float | None, passage_semantic: float | None) -> dict:
    """The unit's signals (see the module docstring); a cosine not measured is None (held at its mean)."""
    normative = {w.lower() for w in NORMATIVE.findall(question.text)}
    return {
        "semantic": semantic,
        "passage_semantic": passage_semantic,
        "overlap": overlap,
        "rank": 1.0 / (1 + rank),
        "anchor": 1.0 if passage.origin in ("anchor", "closing") else 0.0,
        "position": 1.0 / (1 + position),
        "focus": _focus(question, text, passage, closing),
        "penal_unasked": 1.0 if PENAL.search(text) and not ASKS_SANCTION.search(question.text) else 0.0,
        "closing_unasked": 1.0 if closing and question.asks not in CLOSING_ASKS else 0.0,
        "penjelasan_unasked": 1.0 if passage.kind == "penjelasan" and not ASKS_EXPLANATION.search(question.text)
        else 0.0,
        "preamble": 1.0 if passage.kind == "preamble" else 0.0,
        "lampiran": 1.0 if passage.kind == "lampiran" else 0.0,
        "list": 1.0 if kind == "list" else 0.0,
        "short": 1.0 if len(text) < SHORT_CHARS else 0.0,
        "normative": 1.0 if normative and {w.lower() for w in NORMATIVE.findall(text)} & normative else 0.0,
        "bound": 1.0 if states_bound(text, question.bound) else 0.0,
        "definition_unasked": 1.0 if question.asks not in DEFINITION_ASKS and _definition(text, passage) else 0.0,
    }


def _definition(text: str, passage: Passage) -> bool:
    """A definition of the general-provisions article (its section path names Pasal 1)."""
    return (passage.kind == "body" and bool(DEFINES.search(text))
            and bool(DEFINITIONS_ARTICLE.search(" ".join(passage.section_path))))


TOOL_FIGURE_BONUS = 0.8         # focus_bonus's value for the asked unit's figure


def _focus(question: Question, text: str, passage: Passage, closing: bool) -> float:
    """The unit's fit to what is asked; a tool read's computed figure is the figure asked for (the planner chose
    the measure and filters for this question: live.py), in whatever notation the computation prints it."""
    bonus = focus_bonus(question.focus, text, closing)
    if passage.origin == "tool" and question.focus.kind == "figure" and re.search(r"\d", text):
        return max(bonus, TOOL_FIGURE_BONUS)
    return bonus


def log_odds(features: dict, params: RankerParams, *, lexical: bool = True) -> float:
    """The unit's score: the fitted model's logit that it, of the question's units, states the answer."""
    return linear_score(features, weights=params.weights, intercept=params.intercept, means=params.means,
                        scales=params.scales, held=frozenset() if lexical else LEXICAL)


_ENACTED = re.compile(r"^\s*(?:Ditetapkan|Disahkan)\s+di\b", re.I)
_PROMULGATED = re.compile(r"^\s*Diundangkan\s+di\b", re.I)
_PROMULGATION_ASKED = re.compile(r"\bdiundangkan|\bpromulgat", re.I)


def fit_to_lead(question: Question, text: str, score: float) -> tuple[bool, int, float]:
    """A unit's claim to lead the answer among the units kept, as (fits, how well, score): what someone must (or
    may not) do ("PPID wajib …") is said by a unit with that word, not beside it; who signed (or when it was
    enacted) by the enactment line ("Disahkan di … PRESIDEN …"), not the promulgation below it ("Diundangkan di …
    MENTERI …") unless that is asked; a list asked by the list whose lead-in names most of what is asked; then its
    score."""
    if question.focus.kind in ("signatory", "enactment"):
        line = _PROMULGATED if _PROMULGATION_ASKED.search(question.text) else _ENACTED
        return bool(line.match(text)), 0, score
    if question.focus.kind == "list":      # the list whose lead-in names what is asked ("… meliputi:")
        # Of two that do, the one naming more of its distinctive words ("Hak Perempuan meliputi:" before "Ruang
        # lingkup pengaturan dalam qanun ini meliputi:" for "hak perempuan apa saja yang diatur dalam qanun …").
        shared = list_lead_shared(question.focus, text)
        fits = len(shared) >= LIST_LEAD_SHARED
        return fits, len(shared - GENERIC_STEMS) if fits else 0, score
    # The first ask's duty word, not a second ask's ("brp lama … & pejabatnya wajib jawab kapan?").
    asked = {w.lower() for w in NORMATIVE.findall(first_ask(question.text))}
    return bool(asked and {w.lower() for w in NORMATIVE.findall(text)} & asked), 0, score
