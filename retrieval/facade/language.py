"""Retrieval's reading of legal language, for the apps that answer: pure functions over text, no rows.

Naming regulations and articles, the glossary's expansions, which articles a
reference covers, the signature block's vocabulary, the one question-length rule.
"""
from retrieval.errors import (
    MAX_QUESTION_CHARS,
    QueryTooLong,
    require_query_length,
    require_query_text,
    require_question,
)
from retrieval.parsing.structure_lines import LETTERED_PART
from retrieval.references import covered_articles
from retrieval.search.glossary import alternatives, expansion_words, glossary_expansions
from retrieval.search.naming import (
    NAMED_REGULATION,
    PASAL,
    RESOLVE_BROWSE_LIMIT,
    ArticleLocator,
    NamedRegulation,
    find_article,
    find_named_regulation,
    find_named_regulations,
    type_prefixes,
)
from retrieval.search.clauses import asks_status
from retrieval.search.colloquial import formal_forms
from retrieval.search.titles import instrument_years, unmet_titles
from retrieval.signature import ENACTMENT, OFFICE, PERSON, SIGNATORY, enacts_instrument

__all__ = [
    "ENACTMENT", "LETTERED_PART", "MAX_QUESTION_CHARS", "NAMED_REGULATION", "OFFICE", "PASAL", "PERSON", "SIGNATORY",
    "RESOLVE_BROWSE_LIMIT", "ArticleLocator", "alternatives", "asks_status", "enacts_instrument", "NamedRegulation", "QueryTooLong", "covered_articles",
    "expansion_words", "find_article", "find_named_regulation", "formal_forms", "find_named_regulations", "glossary_expansions", "instrument_years", "unmet_titles",
    "require_query_length", "require_query_text", "require_question", "type_prefixes",
]
