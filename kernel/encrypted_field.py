"""A text column stored encrypted (Fernet: AES-128-CBC + HMAC-SHA256), read back as the plain text.

Partner JWT secrets must be stored as they are to verify signatures, so they
are encrypted at rest instead of hashed: a copy of the database (a backup, a
replica, a leaked dump) does not hold them. The keys come from the
environment, ``ACEH_RAG_AUTH__KEY_ENCRYPTION_KEYS`` (Fernet keys, comma
separated: the first encrypts, every one decrypts, so a key is rotated by
putting the new one first and re-saving the rows); unset, one key is derived
from ``DJANGO_SECRET_KEY`` with HKDF. A value written before encryption
existed reads as it is and is encrypted when its row is next saved (the
migration that introduced the field does that for every row).
"""
from __future__ import annotations

import base64
import functools

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.db import models

TOKEN_PREFIX = "gAAAAA"     # every Fernet token starts with its version byte and a timestamp


@functools.cache
def _fernet(secret_key: str, configured: tuple[str, ...]) -> MultiFernet:
    if configured:
        return MultiFernet([Fernet(key.encode()) for key in configured])
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                   info=b"aceh-rag encrypted columns").derive(secret_key.encode())
    return MultiFernet([Fernet(base64.urlsafe_b64encode(derived))])


def column_cipher() -> MultiFernet:
    return _fernet(settings.SECRET_KEY, tuple(settings.ACEH_RAG.auth.key_encryption_keys))


class EncryptedTextField(models.TextField):
    """``TextField`` whose database value is a Fernet token; Python sees the plain text."""

    def from_db_value(self, value, expression, connection):
        if not value or not value.startswith(TOKEN_PREFIX):
            return value
        try:
            return column_cipher().decrypt(value.encode()).decode()
        except InvalidToken as exc:
            raise InvalidToken(f"{self.model.__name__}.{self.name} cannot be decrypted with the configured keys "
                               "(ACEH_RAG_AUTH__KEY_ENCRYPTION_KEYS, DJANGO_SECRET_KEY)") from exc

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        if not value:
            return value
        return column_cipher().encrypt(value.encode()).decode()
