"""Staff-only workbench pages mounted under /admin/ (each wrapped by ``admin.site.admin_view``)."""
from __future__ import annotations

from django.contrib import admin
from django.shortcuts import redirect, render
from django.urls import reverse

from retrieval.embedders import EmbeddingError
from retrieval.search import SearchTimeout
from workbench.forms import RetrievalTestForm
from workbench.models import RetrievalTest
from workbench.retrieval_test import TestRequest, retrieval_test_run, retrieval_tests_recent


def retrieval_test_view(request):
    shown = None
    if request.method == "POST":
        form = RetrievalTestForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                test = retrieval_test_run(administrator=request.user, request=TestRequest(
                    query=data["query"], mode=data["mode"], top_k=data["top_k"], identity=data["identity"],
                    unit=data["unit"].strip(), level=data["level"],
                    collection_ids=tuple(c.pk for c in data["collections"]), document_ids=data["document_ids"]))
            except (EmbeddingError, SearchTimeout) as exc:
                form.add_error(None, f"The search failed: {exc or 'timed out'}")
            else:
                return redirect(reverse("workbench_retrieval_test") + f"?test={test.pk}")
    else:
        shown = RetrievalTest.objects.filter(administrator=request.user, pk=request.GET.get("test") or 0).first() \
            if (request.GET.get("test") or "").isdigit() else None
        form = RetrievalTestForm(initial=RetrievalTestForm.initial_from(shown) if shown else None)
    context = {
        **admin.site.each_context(request), "title": "Retrieval test", "form": form, "test": shown,
        "recent": retrieval_tests_recent(administrator=request.user),
    }
    return render(request, "admin/workbench/retrieval_test.html", context)
