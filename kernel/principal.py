"""Who is asking: the principal every app's access rules read.

``acehrag.auth`` builds one from the API key, a partner JWT or the
``X-User-*`` headers and stores it on ``request.auth``; apps read it with
``request_principal`` and pass it down to selectors and services.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ANONYMOUS_OWNER = "anonymous"
# /query's default user_id; DESIGN.md: it names the same owner as "anonymous".
NIL_UUID = "00000000-0000-0000-0000-000000000000"


@dataclass(frozen=True)
class Principal:
    subject: str | None = None
    role: str = "user"
    unit: str | None = None
    level: int | None = None
    verified: bool = False
    # The workspaces the subject belongs to: ids, or a lazy subquery of them that the access predicate
    # composes. ``workspaces`` supplies it where a principal is built (``principal_with_memberships``);
    # None means none are known, so no workspace's uploads are visible.
    workspace_ids: Any = field(default=None, compare=False, repr=False)

    @property
    def is_admin(self) -> bool:
        return self.verified and self.role.lower() == "admin"

    def owner(self, fallback: str | None = None) -> str:
        """The subject that owns conversations and memories for this request.

        The trusted subject wins; otherwise the route's ``user_id`` fallback
        (only reachable when enforcement is off), otherwise ``anonymous``.
        """
        if self.subject:
            return self.subject
        if fallback is None:
            return ANONYMOUS_OWNER
        fallback = str(fallback).strip()
        if not fallback or fallback == NIL_UUID:
            return ANONYMOUS_OWNER
        return fallback


ANONYMOUS = Principal()


@dataclass(frozen=True)
class RequestIdentity:
    """What ninja stores on ``request.auth`` for an authenticated call."""

    key_name: str
    principal: Principal


def request_principal(request) -> Principal:
    identity = getattr(request, "auth", None)
    return identity.principal if isinstance(identity, RequestIdentity) else ANONYMOUS
