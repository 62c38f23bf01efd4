"""Staff-only workbench pages mounted under /admin/ (each wrapped by ``admin.site.admin_view``)."""
from __future__ import annotations

from django.contrib import admin
from django.shortcuts import redirect, render
from django.urls import reverse

from retrieval.facade.search import EmbeddingError
from retrieval.facade.search import SearchTimeout
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
                    collection_ids=tuple(data["collections"]), document_ids=data["document_ids"]))
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


def dashboard_view(request):
    from workbench.charts import REFUSED, daily_columns_svg, horizontal_bars_svg
    from workbench.dashboard import PERIODS, Period, dashboard_build

    board = dashboard_build(period=Period.last(request.GET.get("days")))
    context = {
        **admin.site.each_context(request), "title": "Quality dashboard", "board": board, "periods": PERIODS,
        "daily_chart": daily_columns_svg([(day.strftime("%d %b"), total, refused) for day, total, refused in board.per_day]),
        "reasons_chart": horizontal_bars_svg(board.refusal_reasons, title="Refusals by reason", color=REFUSED),
        "cited_chart": horizontal_bars_svg([(title, times) for _, title, times in board.cited_documents],
                                           title="Documents most cited"),
    }
    return render(request, "admin/workbench/dashboard.html", context)


EXPORT_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json"}


def exports_view(request):
    from workbench.dashboard import PERIODS

    context = {**admin.site.each_context(request), "title": "Exports", "periods": PERIODS}
    return render(request, "admin/workbench/exports.html", context)


def export_view(request, kind: str, fmt: str):
    from django.http import Http404, StreamingHttpResponse

    from workbench.dashboard import Period
    from workbench.exports import export_stream

    if kind not in ("conversations", "refused") or fmt not in EXPORT_TYPES:
        raise Http404
    period = Period.last(request.GET.get("days"))
    response = StreamingHttpResponse(export_stream(kind, fmt, period), content_type=EXPORT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{kind}-last-{period.key}-days.{fmt}"'
    return response
