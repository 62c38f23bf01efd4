"""Write operations of the project package: API keys and the dev bootstrap."""
from __future__ import annotations

from pathlib import Path

from django.db import transaction
from django.utils import timezone

from acehrag.models import ApiKey, api_key_digest

DEV_KEY_NAME = "development"


@transaction.atomic
def api_key_create(*, name: str, raw_key: str | None = None) -> tuple[ApiKey, str]:
    """Create a named key; returns the row and the raw key (shown once)."""
    raw_key = raw_key or ApiKey.generate_raw_key()
    key = ApiKey.objects.create(name=name, prefix=raw_key[:8], digest=api_key_digest(raw_key))
    return key, raw_key


def api_key_revoke(*, key: ApiKey) -> None:
    ApiKey.objects.filter(pk=key.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def dev_api_key_ensure(*, data_dir: Path) -> str:
    """The development key kept under the data directory, registered in the DB.

    Used only when ACEH_RAG_API__KEYS is unset, so a fresh ``make run`` has a
    working key to print. The file is readable by its owner only.
    """
    path = Path(data_dir) / "dev-api-key"
    if path.exists():
        raw_key = path.read_text().strip()
    else:
        raw_key = ApiKey.generate_raw_key()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(raw_key + "\n")
        path.chmod(0o600)
    digest = api_key_digest(raw_key)
    with transaction.atomic():
        existing = ApiKey.objects.select_for_update().filter(name=DEV_KEY_NAME).first()
        if existing is None:
            ApiKey.objects.create(name=DEV_KEY_NAME, prefix=raw_key[:8], digest=digest)
        elif existing.digest != digest or existing.revoked_at is not None:
            existing.digest, existing.prefix, existing.revoked_at = digest, raw_key[:8], None
            existing.save(update_fields=["digest", "prefix", "revoked_at"])
    return raw_key
