"""API keys and the request principal.

Every API route needs a valid API key. The principal (who the caller is) comes
from a partner-signed JWT in ``Authorization: Bearer`` when one is sent, and
otherwise from the ``X-User-*`` headers set by the partner's backend or
gateway; see DESIGN.md "Access predicate" for what "verified" means.
"""
from __future__ import annotations

import hmac
import logging
import re
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from ninja.security import APIKeyHeader

from acehrag.models import ApiKey, PartnerJwtKey, api_key_digest
from kernel.errors import Forbidden, Unauthenticated, Unavailable
from kernel.partner_jwt import JwtKey, TokenRejected, token_claims
from kernel.principal import ANONYMOUS, Principal, RequestIdentity

logger = logging.getLogger("acehrag.auth")

SUBJECT_MAX_CHARS = 256
UNIT_MAX_CHARS = 200
ROLE_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")
MAX_POSITION_LEVEL = 1000
LAST_USED_GRANULARITY = timedelta(minutes=1)


class InvalidApiKey(Unauthenticated):
    code = "invalid_api_key"

    def __init__(self) -> None:
        super().__init__(INVALID_API_KEY)


class PrincipalError(Unauthenticated):
    """Identity is required but missing or malformed (a bearer token included)."""

    code = "principal_invalid"


class IdentityDisabled(Unavailable):
    """Nobody can be verified: no partner JWT key and identity headers untrusted (fail closed)."""

    code = "identity_disabled"


class AdminRequired(Forbidden):
    code = "admin_required"


INVALID_API_KEY = "Invalid or missing API key"


PRINCIPAL_REQUIRED = "Authenticated principal required"
PRINCIPAL_INVALID = "Invalid authenticated principal"
TOKEN_INVALID = "Invalid bearer token"

# JWT claim names: the seeds name none, so they mirror the X-User-* headers
# (``sub`` is the registered subject claim; ``level`` is an integer).
CLAIM_SUBJECT, CLAIM_ROLE, CLAIM_UNIT, CLAIM_LEVEL = "sub", "role", "unit", "level"


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


def _principal_from_claims(
    subject: str | None, role: str | None, unit: str | None, level: str | None, *, verified: bool
) -> Principal:
    """Validate raw identity claims, from headers or a JWT, into a principal.

    Raises LookupError when there is no subject and ValueError when a claim is malformed.
    """
    if subject is None:
        raise LookupError
    subject = _clean_text(subject, SUBJECT_MAX_CHARS)
    if subject is None:
        raise ValueError("blank subject")
    role = _clean_text(role, 64) or "user"
    if not ROLE_PATTERN.match(role):
        raise ValueError("bad role")
    unit = _clean_text(unit, UNIT_MAX_CHARS)
    raw_level = _clean_text(level, 10)
    position_level = None
    if raw_level is not None:
        if not re.fullmatch(r"\d+", raw_level):
            raise ValueError("bad level")
        position_level = int(raw_level)
        if position_level > MAX_POSITION_LEVEL:
            raise ValueError("level out of range")
    return Principal(subject=subject, role=role, unit=unit, level=position_level, verified=verified)


def principal_from_headers(request: HttpRequest, *, require: bool, trust: bool) -> Principal:
    """Resolve the principal from ``X-User-*`` headers under the configured policy."""
    try:
        return _principal_from_claims(
            _header(request, "X-User-Subject"),
            _header(request, "X-User-Role"),
            _header(request, "X-User-Unit"),
            _header(request, "X-User-Level"),
            verified=trust,
        )
    except LookupError:
        if require:
            raise PrincipalError(PRINCIPAL_REQUIRED) from None
        return ANONYMOUS
    except ValueError:
        if require:
            raise PrincipalError(PRINCIPAL_INVALID) from None
        # Enforcement off: malformed claims are discarded, the caller is anonymous.
        return ANONYMOUS


def jwt_keys_active() -> tuple[JwtKey, ...]:
    """Every key that may verify a partner JWT: the settings' and the admin's active ones."""
    stored = PartnerJwtKey.objects.filter(active=True)
    return settings.ACEH_RAG.auth.jwt_keys + tuple(key.as_jwt_key() for key in stored)


def verified_identity_enabled() -> bool:
    """Whether any caller can have a verified identity (a JWT key, or trusted headers)."""
    auth = settings.ACEH_RAG.auth
    return auth.trust_identity_headers or bool(auth.jwt_keys) or PartnerJwtKey.objects.filter(active=True).exists()


def _claim_text(claims: dict, name: str) -> str | None:
    value = claims.get(name)
    if value is None or isinstance(value, str):
        return value
    if name == CLAIM_LEVEL and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"bad {name} claim")


def _principal_from_token(token: str) -> Principal:
    """The verified principal of a partner JWT; raises TokenRejected or ValueError."""
    keys = jwt_keys_active()
    if not keys:
        raise TokenRejected("no partner JWT key is configured")
    claims = token_claims(token, keys, settings.ACEH_RAG.auth.jwt)
    return _principal_from_claims(
        *(_claim_text(claims, name) for name in (CLAIM_SUBJECT, CLAIM_ROLE, CLAIM_UNIT, CLAIM_LEVEL)),
        verified=True,
    )


def principal_from_bearer(request: HttpRequest) -> Principal | None:
    """The verified principal of ``Authorization: Bearer <JWT>``; None without that header.

    Any other Authorization value, or a token that fails verification, raises
    PrincipalError (``principal_invalid``) rather than falling back to the headers.
    """
    raw = request.headers.get("Authorization", "").strip()
    if not raw:
        return None
    scheme, _, token = raw.partition(" ")
    try:
        if scheme.lower() != "bearer" or not token.strip():
            raise TokenRejected('the Authorization header must be "Bearer <token>"')
        return _principal_from_token(token.strip())
    except TokenRejected as exc:
        reason = exc.reason
    except (LookupError, ValueError):
        reason = "invalid identity claims"
    logger.info("bearer token rejected: %s", reason)
    raise PrincipalError(f"{TOKEN_INVALID}: {reason}")


def principal_from_request(request: HttpRequest) -> Principal:
    """A valid partner JWT wins; without one, the ``X-User-*`` headers as configured.

    The principal carries its subject's workspace memberships (the access predicate reads them).
    """
    from workspaces.facade import principal_with_memberships

    principal = principal_from_bearer(request)
    if principal is None:
        auth = settings.ACEH_RAG.auth
        principal = principal_from_headers(request, require=auth.require_principal, trust=auth.trust_identity_headers)
    return principal_with_memberships(principal)


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
    """Ninja auth callback: None means ``InvalidApiKey`` ("Invalid or missing API key")."""
    name = api_key_name(request.headers.get(settings.ACEH_RAG.api.key_header))
    if name is None:
        return None
    return RequestIdentity(key_name=name, principal=principal_from_request(request))


class ApiKeyAuth(APIKeyHeader):
    """Ninja security scheme: the API key header, then the principal."""

    def __init__(self) -> None:
        self.param_name = settings.ACEH_RAG.api.key_header
        super().__init__()

    def authenticate(self, request: HttpRequest, key: str | None) -> RequestIdentity | None:
        return authenticate_request(request)


IDENTITY_DISABLED = "The playground needs verified identity: configure a partner JWT key or trust identity headers"
ADMIN_REQUIRED = "Verified admin principal required"


class VerifiedAdminAuth(ApiKeyAuth):
    """The API key (``invalid_api_key``), then whether anyone can be verified (``identity_disabled``, fail
    closed), then a verified admin (``admin_required``)."""

    def authenticate(self, request: HttpRequest, key: str | None) -> RequestIdentity | None:
        name = api_key_name(key)
        if name is None:
            return None
        if not verified_identity_enabled():
            raise IdentityDisabled(IDENTITY_DISABLED)
        principal = principal_from_request(request)
        if not principal.is_admin:
            raise AdminRequired(ADMIN_REQUIRED)
        return RequestIdentity(key_name=name, principal=principal)
