from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from acehrag import health, views
from acehrag.api import api
from acehrag.errors import not_found_view
from acehrag.telemetry.views import metrics_view
from answering.public import urls as public_chat_urls
from workbench import urls as workbench_urls

urlpatterns = [
    path("", views.landing, name="landing"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", include(workbench_urls)),  # staff-only workbench pages, before the admin's catch-all
    path("admin/", admin.site.urls),
    # The public widget routes carry no API key; they must come before the API's catch-all mount.
    path("", include(public_chat_urls)),
]

if api.docs_url:

    def redoc(request: HttpRequest) -> HttpResponse:
        from ninja.openapi.docs import Redoc

        return Redoc().render_page(request, api)

    urlpatterns.append(path("redoc", redoc, name="redoc"))

urlpatterns.append(path("", api.urls))

handler404 = "acehrag.errors.not_found_view"
handler500 = "acehrag.errors.server_error_view"
__all__ = ["urlpatterns", "not_found_view"]
