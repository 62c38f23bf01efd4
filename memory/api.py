"""Long-term memory routes (seed: conversations-memory-api)."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Path, Router

from kernel.principal import request_principal
from memory.schemas import ForgetResult, MemorySummary
from memory.selectors import memory_get_owned, memory_list
from memory.services import MemoryNotFound, memory_erase, memory_forget_owner
from kernel.schemas import ErrorOut

router = Router(tags=["memory"])
# Memory ids are PostgreSQL bigints; a larger number is a malformed id (422), not a database error.
BIGINT_MAX = 2**63 - 1


@router.get("/memories", response=list[MemorySummary], summary="The caller's memories, most recently updated first")
def list_memories(request: HttpRequest, user_id: str = "anonymous"):
    owner = request_principal(request).owner(user_id)
    return [
        {"id": m.id, "type": m.memory_type, "text": m.text, "importance": m.importance, "status": m.status,
         "confidential": m.confidential, "last_accessed_at": m.last_accessed_at}
        for m in memory_list(owner=owner)
    ]


@router.delete("/memories/{memory_id}", response={204: None, 404: ErrorOut}, summary="Delete one owned memory")
def delete_memory(request: HttpRequest, memory_id: int = Path(..., ge=1, le=BIGINT_MAX), user_id: str = "anonymous"):
    memory = memory_get_owned(owner=request_principal(request).owner(user_id), memory_id=memory_id)
    if memory is None:
        raise MemoryNotFound(f"Memory {memory_id} not found")
    memory_erase(memory=memory)
    return HttpResponse(status=204)


@router.delete("/memories", response=ForgetResult, summary="Forget me: erase all of the caller's memories")
def forget_me(request: HttpRequest, user_id: str = "anonymous"):
    return {"removed_count": memory_forget_owner(owner=request_principal(request).owner(user_id))}
