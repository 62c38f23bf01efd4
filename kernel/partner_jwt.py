"""Partner-signed JWTs: key material checks and token verification.

Plain functions over ``JwtKey`` values with no Django imports, so the settings
loader can check keys at start and ``acehrag.auth`` can verify a token against
the keys of the settings and of the admin alike.

Key choice (RFC 8725 §2.1, §3.1): the token's ``alg`` never picks the
algorithm. A token with a ``kid`` is checked only against keys with that
``kid``; without one, against the keys of its ``iss`` and the keys that name no
issuer. Each key verifies only its own algorithm, so ``none`` and HS/RS
confusion (an RSA public key used as an HMAC secret) are refused.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import jwt
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.exceptions import InvalidSubjectError

logger = logging.getLogger("acehrag.auth")

ALGORITHMS = ("HS256", "RS256")
# RFC 7518 §3.2: an HS256 key at least as long as the hash output.
MIN_HMAC_SECRET_BYTES = 32
MIN_RSA_KEY_BITS = 2048
MAX_TOKEN_CHARS = 8192
REQUIRED_CLAIMS = ["exp", "sub"]


@dataclass(frozen=True)
class JwtKey:
    """One partner key: an HS256 shared secret or an RS256 public key (PEM)."""

    name: str
    algorithm: str
    key: str = field(repr=False)  # kept out of repr so it never reaches a log line
    kid: str | None = None
    issuer: str | None = None
    audience: str | None = None


@dataclass(frozen=True)
class JwtPolicy:
    """Checks that apply to every key; a key's own issuer/audience override them."""

    issuers: tuple[str, ...] = ()
    audience: tuple[str, ...] = ()
    leeway_seconds: int = 30


class TokenRejected(Exception):
    """The bearer token is not acceptable; ``reason`` is safe to show the caller."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


MALFORMED = "malformed token"
UNSUPPORTED_ALGORITHM = "unsupported algorithm (HS256 or RS256 only)"
UNKNOWN_KEY = "unknown signing key"
ALGORITHM_MISMATCH = "algorithm does not match the signing key"
BAD_SIGNATURE = "signature verification failed"


def key_material_error(algorithm: str, key: str) -> str | None:
    """Why ``key`` cannot verify ``algorithm`` tokens, or None when it can.

    The message never quotes the key.
    """
    if algorithm not in ALGORITHMS:
        return "algorithm must be HS256 or RS256"
    if not key:
        return "the key is empty"
    if algorithm == "HS256":
        if "-----BEGIN" in key:
            return "an HS256 secret must not be a PEM key"
        if len(key.encode("utf-8")) < MIN_HMAC_SECRET_BYTES:
            return f"an HS256 secret needs at least {MIN_HMAC_SECRET_BYTES} bytes"
        return None
    try:
        public_key = serialization.load_pem_public_key(key.encode("utf-8"))
    except (ValueError, TypeError, UnsupportedAlgorithm):
        return "an RS256 key must be the partner's public key in PEM (never the private key)"
    if not isinstance(public_key, rsa.RSAPublicKey):
        return "an RS256 key must be an RSA public key"
    if public_key.key_size < MIN_RSA_KEY_BITS:
        return f"an RS256 key needs at least {MIN_RSA_KEY_BITS} bits"
    return None


def _candidate_keys(keys: tuple[JwtKey, ...], kid: str | None, issuer: Any) -> list[JwtKey]:
    if kid is not None:
        return [key for key in keys if key.kid == kid]
    return [key for key in keys if key.issuer is None or key.issuer == issuer]


def _rejection_reason(exc: jwt.PyJWTError) -> str:
    if isinstance(exc, jwt.ExpiredSignatureError):
        return "token has expired"
    if isinstance(exc, jwt.ImmatureSignatureError):
        return "token is not yet valid"
    if isinstance(exc, jwt.MissingRequiredClaimError):
        return f"token lacks the {exc.claim} claim"
    if isinstance(exc, jwt.InvalidAudienceError):
        return "wrong audience"
    if isinstance(exc, jwt.InvalidIssuerError):
        return "wrong issuer"
    if isinstance(exc, jwt.InvalidAlgorithmError):
        return UNSUPPORTED_ALGORITHM
    if isinstance(exc, InvalidSubjectError):
        return "the sub claim must be a string"
    if isinstance(exc, jwt.DecodeError):
        return MALFORMED
    return "invalid token"


def token_claims(token: str, keys: tuple[JwtKey, ...], policy: JwtPolicy) -> dict[str, Any]:
    """The verified claims of ``token``; raise ``TokenRejected`` otherwise.

    Checked: signature, ``exp`` and ``sub`` present, ``exp``/``nbf``/``iat``
    within the leeway, issuer and audience when configured.
    """
    if not token or len(token) > MAX_TOKEN_CHARS:
        raise TokenRejected(MALFORMED)
    try:
        header = jwt.get_unverified_header(token)
        # Read unverified only to choose the key; nothing from it is trusted.
        unverified = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError:
        raise TokenRejected(MALFORMED) from None
    algorithm = header.get("alg")
    if algorithm not in ALGORITHMS:
        raise TokenRejected(UNSUPPORTED_ALGORITHM)
    candidates = _candidate_keys(keys, header.get("kid"), unverified.get("iss"))
    if not candidates:
        raise TokenRejected(UNKNOWN_KEY)
    usable = [key for key in candidates if key.algorithm == algorithm]
    if not usable:
        raise TokenRejected(ALGORITHM_MISMATCH)
    for key in usable:
        audience = (key.audience,) if key.audience else policy.audience
        issuer = key.issuer or policy.issuers or None
        try:
            return jwt.decode(
                token,
                key.key,
                algorithms=[key.algorithm],
                audience=audience or None,
                issuer=issuer,
                leeway=policy.leeway_seconds,
                # Without a configured audience the aud claim is not checked.
                options={"require": REQUIRED_CLAIMS, "verify_aud": bool(audience)},
            )
        except jwt.InvalidSignatureError:
            continue  # another key of the same partner may have signed it (rotation)
        except jwt.InvalidKeyError:
            logger.warning("partner JWT key %r cannot verify %s tokens; skipped", key.name, key.algorithm)
            continue
        except jwt.PyJWTError as exc:
            raise TokenRejected(_rejection_reason(exc)) from None
    raise TokenRejected(BAD_SIGNATURE)
