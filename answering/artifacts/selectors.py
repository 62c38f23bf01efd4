"""Reading an artifact back: only its conversation's owner finds it."""
from __future__ import annotations

import uuid

from answering.models import Artifact


def artifact_get_owned(*, artifact_id: uuid.UUID, owner: str) -> Artifact | None:
    """The artifact when ``owner`` owns its conversation; None for an unknown id and for anyone else's alike."""
    return Artifact.objects.filter(id=artifact_id, owner=owner).first()
