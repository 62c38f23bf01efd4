"""Reads of long-term memories, always through their owner."""
from __future__ import annotations

from django.db.models import QuerySet

from memory.models import Memory


def memory_list(*, owner: str) -> QuerySet[Memory]:
    """The owner's memories except deleted tombstones, most recently updated first."""
    return Memory.objects.filter(owner=owner).exclude(status=Memory.Status.DELETED).order_by("-updated_at", "-id")


def memory_get_owned(*, owner: str, memory_id: int) -> Memory | None:
    return memory_list(owner=owner).filter(id=memory_id).first()
