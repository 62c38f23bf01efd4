"""The admin site: the product's names, and the workbench pages listed with the apps (sidebar and index).

Installed through ``AcehAdminConfig`` in place of ``django.contrib.admin`` (Django's ``default_site``),
so every ``admin.register`` in the apps registers here.
"""
from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.urls import reverse

# The workbench's pages (workbench/urls.py): url name and label, in the order an administrator uses them.
WORKBENCH_PAGES = [
    ("workbench_dashboard", "Quality dashboard"),
    ("workbench_retrieval_test", "Retrieval test"),
    ("workbench_exports", "Exports"),
]


class AcehAdminSite(admin.AdminSite):
    site_header = "Aceh RAG administration"
    site_title = "Aceh RAG"
    index_title = "Corpus, conversations and partner access"
    site_url = "/"   # "View site": the landing page (links to /docs, /admin/, /widget)

    def workbench_app(self) -> dict:
        """The workbench as one more app of the list; its pages are views, never added or changed."""
        pages = [{"name": label, "object_name": name, "admin_url": reverse(name), "add_url": None, "view_only": True,
                  "perms": {"view": True}} for name, label in WORKBENCH_PAGES]
        return {"name": "Workbench", "app_label": "workbench", "app_url": pages[0]["admin_url"],
                "has_module_perms": True, "models": pages}

    def get_app_list(self, request, app_label=None):
        apps = super().get_app_list(request, app_label)
        if app_label is None and request.user.is_active and request.user.is_staff:
            apps.insert(0, self.workbench_app())
        return apps


class AcehAdminConfig(AdminConfig):
    default_site = "acehrag.admin_site.AcehAdminSite"
