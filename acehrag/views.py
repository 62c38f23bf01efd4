"""The landing page at ``/`` (the admin's "View site"): where to go next."""
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
