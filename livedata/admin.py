from django.contrib import admin

from livedata.models import Workbook, WorkbookSheet


class WorkbookSheetInline(admin.TabularInline):
    model = WorkbookSheet
    fields = ["position", "name", "row_count", "column_list"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    @admin.display(description="columns (type)")
    def column_list(self, sheet: WorkbookSheet) -> str:
        return ", ".join(f"{c['name']} ({c['type']})" for c in sheet.columns)

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Workbook)
class WorkbookAdmin(admin.ModelAdmin):
    """Catalogued workbooks; they are uploaded like documents (Documents → Upload) and deleted with them."""

    list_display = ["title", "collection", "period", "source_format", "sheet_count", "row_count", "status", "created_at"]
    list_filter = ["source_format", "document__collection", "document__status"]
    search_fields = ["document__title", "document__source_name"]
    list_select_related = ["document", "document__collection"]
    readonly_fields = ["document", "period", "source_format", "sheet_count", "row_count", "ingest_seconds", "created_at"]
    inlines = [WorkbookSheetInline]

    @admin.display(ordering="document__title")
    def title(self, workbook: Workbook) -> str:
        return workbook.document.title

    @admin.display(ordering="document__collection")
    def collection(self, workbook: Workbook) -> str:
        return workbook.document.collection_id

    @admin.display(ordering="document__status")
    def status(self, workbook: Workbook) -> str:
        return workbook.document.status

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
