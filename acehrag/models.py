import hashlib
import secrets

from django.db import models


def api_key_digest(raw_key: str) -> str:
    # Keys are 256-bit random tokens, so a fast hash is enough to make a stolen
    # table useless; a slow KDF would only add latency to every request.
    return hashlib.sha256(raw_key.encode("utf-8")).hexdigest()


class ApiKey(models.Model):
    """A partner API key managed in the admin; only its digest is stored."""

    name = models.CharField(max_length=100, unique=True)
    prefix = models.CharField(max_length=12, help_text="First characters of the key, to recognise it.")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = "API key"
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @staticmethod
    def generate_raw_key() -> str:
        return "acr_" + secrets.token_urlsafe(32)
