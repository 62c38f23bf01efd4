from django.contrib import admin, messages

from acehrag.models import ApiKey, api_key_digest
from acehrag.services import api_key_revoke


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ["name", "prefix", "is_active", "created_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "prefix"]
    readonly_fields = ["prefix", "created_at", "last_used_at", "revoked_at"]
    fields = ["name", "prefix", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke_keys"]

    @admin.display(boolean=True, description="active")
    def is_active(self, obj: ApiKey) -> bool:
        return obj.is_active

    def save_model(self, request, obj: ApiKey, form, change):
        if not change:
            raw_key = ApiKey.generate_raw_key()
            obj.prefix = raw_key[:8]
            obj.digest = api_key_digest(raw_key)
            messages.warning(request, f"New API key for {obj.name}: {raw_key} — copy it now, it is not shown again.")
        super().save_model(request, obj, form, change)

    @admin.action(description="Revoke selected keys")
    def revoke_keys(self, request, queryset):
        for key in queryset:
            api_key_revoke(key=key)
        self.message_user(request, f"Revoked {queryset.count()} key(s).")
