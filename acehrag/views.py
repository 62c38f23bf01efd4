"""The landing page at ``/`` (the admin's "View site"): where to go next."""
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from acehrag.runtime import runtime_summary


@require_safe
def landing(request: HttpRequest) -> HttpResponse:
    config = settings.ACEH_RAG
    return render(request, "site/landing.html", {
        "project_name": config.public_chat.project_name,
        "docs_enabled": config.api.docs_enabled,
        "runtime": runtime_summary(),
        "key_header": config.api.key_header,
    })


FAVICON = Path(__file__).resolve().parent / "static" / "acehrag" / "favicon.ico"


def favicon(request: HttpRequest) -> HttpResponse:
    """GET /favicon.ico: browsers ask for it on every page (the landing page, /widget, /docs, the admin)."""
    response = HttpResponse(FAVICON.read_bytes(), content_type="image/vnd.microsoft.icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response
