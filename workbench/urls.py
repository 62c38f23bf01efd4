from django.contrib import admin
from django.urls import path

from workbench import views

urlpatterns = [
    path("retrieval-test/", admin.site.admin_view(views.retrieval_test_view), name="workbench_retrieval_test"),
]
