"""Storing a turn's artifacts with its assistant message."""
from __future__ import annotations

import uuid

from answering.artifacts.drafts import ArtifactDraft
from answering.models import Artifact


def artifacts_persist(*, drafts: tuple[ArtifactDraft, ...], conversation_id: uuid.UUID, message_id: uuid.UUID,
                      owner: str) -> None:
    """Precondition: inside the transaction that stores the message, so the files and the answer stand or fall
    together. ``owner``: the conversation's owner, the only caller who may download them."""
    Artifact.objects.bulk_create([
        Artifact(id=draft.id, conversation_id=conversation_id, message_id=message_id, owner=owner, title=draft.title,
                 filename=draft.filename, media_type=draft.media_type, size=draft.size, content=draft.content)
        for draft in drafts])
