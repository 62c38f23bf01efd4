from django.contrib import admin

from memory.models import Memory
from memory.services import memory_erase


@admin.register(Memory)
class MemoryAdmin(admin.ModelAdmin):
    list_display = ["id", "owner", "memory_type", "slot", "short_text", "status", "confidential", "importance",
                    "last_accessed_at", "updated_at"]
    list_filter = ["memory_type", "status", "confidential"]
    search_fields = ["owner", "text"]
    readonly_fields = ["owner", "memory_type", "slot", "text", "importance", "status", "confidential", "embedding_model",
                       "superseded_by", "source_message_id", "last_accessed_at", "created_at", "updated_at"]
    exclude = ["embedding"]
    actions = ["erase"]

    @admin.display(description="text")
    def short_text(self, obj: Memory) -> str:
        return obj.text[:80] or "(erased)"

    @admin.action(description="Delete (erase text and vector) selected memories")
    def erase(self, request, queryset):
        for memory in queryset:
            memory_erase(memory=memory)
        self.message_user(request, f"Erased {queryset.count()} memor(y/ies).")

    def get_actions(self, request):
        actions = super().get_actions(request)
        # Row deletion would bypass the erase service's tombstone; the erase action replaces it.
        actions.pop("delete_selected", None)
        return actions

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
