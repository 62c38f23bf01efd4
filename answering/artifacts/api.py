"""GET /artifacts/{artifact_id}: download a file an answer created (``offer_artifacts`` on /query)."""
from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse
from ninja import Router

from answering.artifacts.selectors import artifact_get_owned
from kernel.errors import NotFound
from kernel.principal import request_principal
from kernel.schemas import ErrorOut

router = Router(tags=["answering"])


class ArtifactNotFound(NotFound):
    code = "artifact_not_found"


@router.get("/artifacts/{artifact_id}", response={200: None, 404: ErrorOut},
            summary="Download a file an answer created (the conversation's owner only)")
def artifact_download(request: HttpRequest, artifact_id: uuid.UUID, user_id: str = "anonymous"):
    owner = request_principal(request).owner(user_id)
    artifact = artifact_get_owned(artifact_id=artifact_id, owner=owner)
    if artifact is None:
        # Another subject's artifact and an unknown id look the same.
        raise ArtifactNotFound(f"Artifact {artifact_id} not found")
    response = HttpResponse(bytes(artifact.content), content_type=artifact.media_type)
    response["Content-Disposition"] = f'attachment; filename="{artifact.filename}"'
    response["Content-Length"] = str(artifact.size)
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response
