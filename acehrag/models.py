import hashlib
import secrets

from django.core.exceptions import ValidationError
from django.db import models

from kernel.encrypted_field import EncryptedTextField
from kernel.partner_jwt import JwtKey, key_material_error


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


class PartnerJwtKey(models.Model):
    """A key that verifies the JWTs a partner's backend signs (docs/api.md "Verified identity").

    HS256 keys are shared secrets and must be stored as they are to verify a
    signature; RS256 keys are public keys. Keys from ACEH_RAG_AUTH__JWT_KEYS
    are used beside these.
    """

    class Algorithm(models.TextChoices):
        HS256 = "HS256", "HS256 (shared secret)"
        RS256 = "RS256", "RS256 (RSA public key)"

    name = models.CharField(max_length=100, unique=True, help_text="Partner and key, e.g. \"Bappeda 2026\".")
    kid = models.CharField(
        "key id (kid)", max_length=200, blank=True,
        help_text="The kid header of the partner's tokens; blank when they carry none.",
    )
    algorithm = models.CharField(max_length=5, choices=Algorithm.choices, default=Algorithm.HS256)
    # Encrypted at rest (kernel/encrypted_field.py): a database copy does not hold the shared secrets.
    key = EncryptedTextField(help_text="HS256: the shared secret (at least 32 bytes). RS256: the public key in PEM.")
    issuer = models.CharField(
        max_length=500, blank=True,
        help_text="Required iss claim; tokens without a kid are matched to keys by it.",
    )
    audience = models.CharField(
        max_length=500, blank=True, help_text="Required aud claim; blank uses ACEH_RAG_AUTH__JWT_AUDIENCE.",
    )
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "partner JWT key"
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["kid"], condition=~models.Q(kid=""), name="partner_jwt_key_unique_kid"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.algorithm}{', kid ' + self.kid if self.kid else ''})"

    def clean(self) -> None:
        problem = key_material_error(self.algorithm, self.key)
        if problem:
            raise ValidationError({"key": problem})

    @property
    def fingerprint(self) -> str:
        """First characters of the key's SHA-256, to recognise a key without showing it."""
        if not self.key:
            return ""
        return hashlib.sha256(self.key.encode("utf-8")).hexdigest()[:12]

    def as_jwt_key(self) -> JwtKey:
        return JwtKey(
            name=self.name, algorithm=self.algorithm, key=self.key, kid=self.kid or None,
            issuer=self.issuer or None, audience=self.audience or None,
        )
