"""Write operations of the project package: API keys and the dev bootstrap."""
from __future__ import annotations

import secrets
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from acehrag.models import ApiKey, PartnerJwtKey, api_key_digest

DEV_KEY_NAME = "development"


@transaction.atomic
def api_key_create(*, name: str, raw_key: str | None = None) -> tuple[ApiKey, str]:
    """Create a named key; returns the row and the raw key (shown once)."""
    raw_key = raw_key or ApiKey.generate_raw_key()
    key = ApiKey.objects.create(name=name, prefix=raw_key[:8], digest=api_key_digest(raw_key))
    return key, raw_key


def api_key_revoke(*, key: ApiKey) -> None:
    ApiKey.objects.filter(pk=key.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def _dev_secret_kept(path: Path, generate) -> str:
    """The secret stored in ``path`` (readable by its owner only), created with ``generate`` when absent."""
    if path.exists():
        return path.read_text().strip()
    secret = generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(secret + "\n")
    path.chmod(0o600)
    return secret


def dev_api_key_ensure(*, data_dir: Path) -> str:
    """The development key kept under the data directory, registered in the DB.

    Used only when ACEH_RAG_API__KEYS is unset, so a fresh ``make run`` has a
    working key to print. The file is readable by its owner only.
    """
    raw_key = _dev_secret_kept(Path(data_dir) / "dev-api-key", ApiKey.generate_raw_key)
    digest = api_key_digest(raw_key)
    with transaction.atomic():
        existing = ApiKey.objects.select_for_update().filter(name=DEV_KEY_NAME).first()
        if existing is None:
            ApiKey.objects.create(name=DEV_KEY_NAME, prefix=raw_key[:8], digest=digest)
        elif existing.digest != digest or existing.revoked_at is not None:
            existing.digest, existing.prefix, existing.revoked_at = digest, raw_key[:8], None
            existing.save(update_fields=["digest", "prefix", "revoked_at"])
    return raw_key


def dev_jwt_secret_ensure(*, data_dir: Path) -> str:
    """The development partner-JWT secret (HS256) kept in ``<data dir>/dev-jwt-secret``, active in the DB.

    The partner quick start's step 7 mints tokens with it against a plain
    ``make run``; used only when neither API keys nor JWT keys come from the environment.
    """
    secret = _dev_secret_kept(Path(data_dir) / "dev-jwt-secret", lambda: secrets.token_urlsafe(48))
    PartnerJwtKey.objects.update_or_create(
        name=DEV_KEY_NAME, defaults={"algorithm": PartnerJwtKey.Algorithm.HS256, "key": secret, "active": True})
    return secret
