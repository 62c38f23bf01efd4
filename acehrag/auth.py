"""API keys and the request principal.

Every API route needs a valid API key. The principal (who the caller is) comes
from the trusted ``X-User-*`` headers set by the partner's backend or gateway;
see DESIGN.md "Access predicate" for what "verified" means.
"""
from __future__ import annotations

import hmac
import re
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from ninja.security import APIKeyHeader

from acehrag.models import ApiKey, api_key_digest

SUBJECT_MAX_CHARS = 256
UNIT_MAX_CHARS = 200
ROLE_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")
MAX_POSITION_LEVEL = 1000
ANONYMOUS_OWNER = "anonymous"
# /query's default user_id; DESIGN.md: it names the same owner as "anonymous".
NIL_UUID = "00000000-0000-0000-0000-000000000000"
LAST_USED_GRANULARITY = timedelta(minutes=1)


class PrincipalError(Exception):
    """Identity is required but missing or malformed; answered with 401."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


PRINCIPAL_REQUIRED = "Authenticated principal required"
PRINCIPAL_INVALID = "Invalid authenticated principal"


@dataclass(frozen=True)
class Principal:
    subject: str | None = None
    role: str = "user"
    unit: str | None = None
    level: int | None = None
    verified: bool = False

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


def _header(request: HttpRequest, name: str) -> str | None:
    return request.headers.get(name)


def _clean_text(value: str | None, max_chars: int) -> str | None:
    """Return the stripped value, None when absent/blank; raise on bad content."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    if len(value) > max_chars or CONTROL_CHARS.search(value):
        raise ValueError("malformed")
    return value


def principal_from_headers(request: HttpRequest, *, require: bool, trust: bool) -> Principal:
    """Resolve the principal from ``X-User-*`` headers under the configured policy."""
    raw_subject = _header(request, "X-User-Subject")
    try:
        if raw_subject is None:
            raise LookupError
        subject = _clean_text(raw_subject, SUBJECT_MAX_CHARS)
        if subject is None:
            raise ValueError("blank subject")
        role = _clean_text(_header(request, "X-User-Role"), 64) or "user"
        if not ROLE_PATTERN.match(role):
            raise ValueError("bad role")
        unit = _clean_text(_header(request, "X-User-Unit"), UNIT_MAX_CHARS)
        raw_level = _clean_text(_header(request, "X-User-Level"), 10)
        level = None
        if raw_level is not None:
            if not re.fullmatch(r"\d+", raw_level):
                raise ValueError("bad level")
            level = int(raw_level)
            if level > MAX_POSITION_LEVEL:
                raise ValueError("level out of range")
    except LookupError:
        if require:
            raise PrincipalError(PRINCIPAL_REQUIRED) from None
        return ANONYMOUS
    except ValueError:
        if require:
            raise PrincipalError(PRINCIPAL_INVALID) from None
        # Enforcement off: malformed claims are discarded, the caller is anonymous.
        return ANONYMOUS
    return Principal(subject=subject, role=role, unit=unit, level=level, verified=trust)


def _env_key_matches(presented: str) -> str | None:
    matched = None
    for index, key in enumerate(settings.ACEH_RAG.api.keys):
        # Compare against every configured key so timing does not reveal which matched.
        if hmac.compare_digest(presented.encode("utf-8"), key.encode("utf-8")):
            matched = f"env-key-{index + 1}"
    return matched


def _db_key_matches(presented: str) -> str | None:
    key = ApiKey.objects.filter(digest=api_key_digest(presented), revoked_at__isnull=True).first()
    if key is None:
        return None
    now = timezone.now()
    if key.last_used_at is None or now - key.last_used_at > LAST_USED_GRANULARITY:
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
    return key.name


def api_key_name(presented: str | None) -> str | None:
    """The name of the key the caller presented, or None when it is not valid."""
    if not presented or len(presented) > 512:
        return None
    return _env_key_matches(presented) or _db_key_matches(presented)


def authenticate_request(request: HttpRequest) -> RequestIdentity | None:
    """Ninja auth callback: None means 401 "Invalid or missing API key"."""
    config = settings.ACEH_RAG
    name = api_key_name(request.headers.get(config.api.key_header))
    if name is None:
        return None
    principal = principal_from_headers(
        request, require=config.auth.require_principal, trust=config.auth.trust_identity_headers
    )
    return RequestIdentity(key_name=name, principal=principal)


class ApiKeyAuth(APIKeyHeader):
    """Ninja security scheme: the API key header, then the principal."""

    def __init__(self) -> None:
        self.param_name = settings.ACEH_RAG.api.key_header
        super().__init__()

    def authenticate(self, request: HttpRequest, key: str | None) -> RequestIdentity | None:
        return authenticate_request(request)


def request_principal(request: HttpRequest) -> Principal:
    identity = getattr(request, "auth", None)
    return identity.principal if isinstance(identity, RequestIdentity) else ANONYMOUS
