"""Public chat work: visitor identity, abuse limits, origins and follow-up suggestions.

The answer itself is ``answering.public.turn``: the shared pipeline run for an
anonymous visitor.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.core import signing

from answering.extractive.anchors import find_article, find_named_regulation
from conversations.facade import PUBLIC_OWNER_PREFIX
from kernel.config import PublicChatSettings
from answering.rate_limits import rate_window_count
from kernel.errors import RateLimited

MAX_SUGGESTIONS = 3
ID_MAX_CHARS = 200


# -- identity ---------------------------------------------------------------------------

VISITOR_SALT = "answering.public.visitor"
SESSION_SALT = "answering.public.session"


@dataclass(frozen=True)
class VisitorIdentity:
    """Server-issued ids; the signature makes them unforgeable, the random part unguessable."""

    visitor_id: str          # "<random>:<signature>", kept by the widget
    session_id: str          # bound to the visitor: useless with another visitor id
    visitor_key: str         # the random part: conversation owner and rate-limit key

    @property
    def owner(self) -> str:
        return PUBLIC_OWNER_PREFIX + self.visitor_key


def _unsign(signer: signing.Signer, token: object) -> str | None:
    if not isinstance(token, str) or not token or len(token) > ID_MAX_CHARS:
        return None
    try:
        return signer.unsign(token)
    except signing.BadSignature:
        return None


def visitor_identify(*, visitor_id: str | None, session_id: str | None) -> VisitorIdentity:
    """The visitor's ids when they are ones we issued; fresh ids otherwise.

    A forged or foreign-deployment id silently becomes a new visitor, who
    owns no conversation yet.
    """
    visitor_signer = signing.Signer(salt=VISITOR_SALT)
    visitor_key = _unsign(visitor_signer, visitor_id)
    if visitor_key is None:
        visitor_key = "v_" + secrets.token_urlsafe(16)
        visitor_id = visitor_signer.sign(visitor_key)
    session_signer = signing.Signer(salt=f"{SESSION_SALT}:{visitor_key}")
    if _unsign(session_signer, session_id) is None:
        session_id = session_signer.sign("s_" + secrets.token_urlsafe(12))
    return VisitorIdentity(visitor_id=visitor_id, session_id=session_id, visitor_key=visitor_key)


# -- abuse limits -----------------------------------------------------------------------

def client_address(remote_addr: str | None, forwarded_for: str | None, proxy_hops: int) -> str:
    """The caller's address: REMOTE_ADDR, or the entry ``proxy_hops`` trusted proxies vouch for.

    Entries further left in X-Forwarded-For are client-supplied and ignored.
    """
    remote = remote_addr or "unknown"
    if proxy_hops <= 0:
        return remote
    chain = [part.strip() for part in (forwarded_for or "").split(",") if part.strip()] + [remote]
    return chain[-(proxy_hops + 1)] if len(chain) > proxy_hops else chain[0]


async def public_rate_check(*, identity: VisitorIdentity, address: str | None, config: PublicChatSettings) -> None:
    """Raise ``RateLimited`` when the address or the visitor asked too often in the window.

    The address limit comes first: a client that drops its visitor id gets a
    fresh one each time, and only the address limit still holds it. Without an
    address (the keyed agent route: one partner server asks for all its
    visitors) only the visitor's limit applies.
    """
    window = config.rate_window_seconds
    limits = ((f"public-chat:rate:ip:{address}", config.ip_rate_limit),) if address is not None else ()
    for key, limit in (*limits, (f"public-chat:rate:visitor:{identity.visitor_key}", config.visitor_rate_limit)):
        wait = await rate_window_count(key, limit, window)
        if wait is not None:
            raise RateLimited(f"Too many questions; try again in {wait} seconds", retry_after=wait)


# -- origins ----------------------------------------------------------------------------

def origin_of(url: str | None) -> str | None:
    """``scheme://host[:port]`` of a URL (an Origin or Referer header), lower case."""
    if not url:
        return None
    parts = urlsplit(url.strip())
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def origin_allowed(origin: str, *, own_origin: str, config: PublicChatSettings) -> bool:
    if origin == own_origin.lower():
        return True
    allowed = {origin_of(item) or item for item in config.allowed_origins}
    return "*" in allowed or origin in allowed


def cross_origin_allowed(origin: str | None, *, own_origin: str, config: PublicChatSettings) -> bool:
    """Whether a browser on ``origin`` (another site) may read our responses (CORS)."""
    return bool(origin) and origin != own_origin.lower() and origin_allowed(origin, own_origin=own_origin, config=config)


# -- suggestions ------------------------------------------------------------------------

SUGGESTION_TEMPLATES = {
    "id": {"article": "Apa isi Pasal {pasal} {name}?", "subject": "Apa saja yang diatur dalam {name}?",
           "contents": "Apa isi {name}?", "signatory": "Siapa yang menandatangani {name}?"},
    "en": {"article": "What does Pasal {pasal} of {name} say?", "subject": "What does {name} regulate?",
           "contents": "What does {name} contain?", "signatory": "Who signed {name}?"},
}
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)\s*$")


def _short_name(title: str) -> str:
    """A document's name without its subject ("… tentang …") or a trailing note."""
    name = re.split(r"\s+tentang\s+", title, maxsplit=1, flags=re.I)[0]
    return _TRAILING_NOTE.sub("", name).strip() or title


def suggestions_for(*, question: str, sources: list[dict], language: str) -> list[str]:
    """Up to three follow-up questions built from the cited sources, deterministically.

    Cited articles first ("Apa isi Pasal 22 Undang-Undang Nomor 14 Tahun 2008?"),
    then what each cited regulation covers, then other cited documents, then
    who signed the first regulation. Regulations are named the way the
    pipeline's anchors resolve them, so a suggestion reads the right document.
    """
    templates = SUGGESTION_TEMPLATES.get(language, SUGGESTION_TEMPLATES["id"])
    articles: list[str] = []
    regulations: list[str] = []
    others: list[str] = []
    for source in sources:
        if source.get("kind") == "tool":
            continue  # a live-data read names no regulation to ask about
        reference = source.get("legal_reference") or ""
        title = source.get("document_title") or ""
        named = find_named_regulation(reference) or find_named_regulation(title)
        if named is None:
            others.append(_short_name(title))
            continue
        locator = find_article(reference)
        if locator:
            articles.append(templates["article"].format(pasal=locator.pasal, name=named.text))
        regulations.append(named.text)
    candidates = [
        *articles,
        *(templates["subject"].format(name=name) for name in regulations),
        *(templates["contents"].format(name=name) for name in others if name),
        *(templates["signatory"].format(name=name) for name in regulations[:1]),
    ]
    asked = " ".join(question.lower().split()).rstrip("?")
    chosen: list[str] = []
    for text in candidates:
        if text not in chosen and " ".join(text.lower().split()).rstrip("?") != asked:
            chosen.append(text)
    return chosen[:MAX_SUGGESTIONS]
