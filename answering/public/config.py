"""Settings of the public chat (the ``public_chat`` section of the typed settings)."""
from __future__ import annotations

from django.conf import settings

from kernel.config import PublicChatSettings


def public_chat_settings() -> PublicChatSettings:
    return settings.ACEH_RAG.public_chat
