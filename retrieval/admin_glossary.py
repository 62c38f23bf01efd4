"""Admin for the search glossary (nicknames, abbreviations, colloquial forms, English words, everyday words).

Registered from ``RetrievalConfig.ready`` so that ``retrieval/admin.py`` stays as it is.
Saving or deleting an entry clears this process's cached table (see
``retrieval.search.glossary``); other processes pick it up within 30 seconds.
"""
from django.contrib import admin

from retrieval.models import GlossaryEntry


class GlossaryEntryAdmin(admin.ModelAdmin):
    list_display = ["phrase", "kind", "expansion", "instrument_type", "number", "year", "enabled"]
    list_filter = ["kind", "enabled"]
    list_editable = ["enabled"]
    search_fields = ["phrase", "expansion", "note"]


def register(site: admin.AdminSite = admin.site) -> None:
    if not site.is_registered(GlossaryEntry):
        site.register(GlossaryEntry, GlossaryEntryAdmin)
