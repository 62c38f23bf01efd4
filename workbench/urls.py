from django.contrib import admin
from django.urls import path

from workbench import views

urlpatterns = [
    path("dashboard/", admin.site.admin_view(views.dashboard_view), name="workbench_dashboard"),
    path("exports/", admin.site.admin_view(views.exports_view), name="workbench_exports"),
    path("exports/<str:kind>.<str:fmt>", admin.site.admin_view(views.export_view), name="workbench_export"),
    path("retrieval-test/", admin.site.admin_view(views.retrieval_test_view), name="workbench_retrieval_test"),
]
