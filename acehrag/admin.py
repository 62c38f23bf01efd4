from django import forms
from django.contrib import admin, messages

from acehrag.models import ApiKey, PartnerJwtKey, api_key_digest
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


class PartnerJwtKeyForm(forms.ModelForm):
    """A stored HS256 secret is never sent back to the browser; blank keeps it."""

    key = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8, "cols": 70, "autocomplete": "off", "spellcheck": "false"}),
        required=False,
        help_text=PartnerJwtKey._meta.get_field("key").help_text,
    )

    class Meta:
        model = PartnerJwtKey
        fields = ["name", "kid", "algorithm", "key", "issuer", "audience", "active"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and self.instance.algorithm == PartnerJwtKey.Algorithm.HS256:
            self.initial["key"] = ""
            self.fields["key"].help_text = "The current secret is not shown; leave blank to keep it, or paste a new one."

    def clean_key(self) -> str:
        key = self.cleaned_data["key"]
        if key:
            return key
        if self.instance.pk:
            return self.instance.key
        raise forms.ValidationError("A shared secret or a public key is required.")


@admin.register(PartnerJwtKey)
class PartnerJwtKeyAdmin(admin.ModelAdmin):
    form = PartnerJwtKeyForm
    list_display = ["name", "kid", "algorithm", "issuer", "audience", "fingerprint", "active", "updated_at"]
    list_filter = ["active", "algorithm"]
    search_fields = ["name", "kid", "issuer"]
    readonly_fields = ["fingerprint", "created_at", "updated_at"]

    @admin.display(description="key fingerprint (SHA-256)")
    def fingerprint(self, obj: PartnerJwtKey) -> str:
        return obj.fingerprint
