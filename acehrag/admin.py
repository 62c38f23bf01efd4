from django import forms
from django.contrib import admin, messages

from acehrag.models import ApiKey, PartnerJwtKey, api_key_digest
from acehrag.services import api_key_revoke
from kernel.admin_audit import admin_change_logged


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
        admin_change_logged(request, queryset, "Revoked")
        self.message_user(request, f"Revoked {queryset.count()} key(s).")


class PartnerJwtKeyForm(forms.ModelForm):
    """HS256 secrets are write-only (a password field, never sent back); RS256 public keys stay readable.

    A blank secret on an existing HS256 key keeps the stored one.
    """

    secret = forms.CharField(
        label="Shared secret (HS256)", required=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password", "size": 60}),
        help_text="At least 32 bytes. Write-only: it is never shown again, not even here.",
    )
    key = forms.CharField(
        label="Public key (RS256, PEM)", required=False,
        widget=forms.Textarea(attrs={"rows": 8, "cols": 70, "autocomplete": "off", "spellcheck": "false"}),
        help_text="The partner's RSA public key in PEM (never the private key).",
    )

    class Meta:
        model = PartnerJwtKey
        fields = ["name", "kid", "algorithm", "secret", "key", "issuer", "audience", "active"]

    class Media:
        js = ["acehrag/jwt_key_form.js"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and self.instance.algorithm == PartnerJwtKey.Algorithm.HS256:
            self.initial["key"] = ""
            self.fields["secret"].help_text = "A secret is stored (not shown); leave blank to keep it, or type a new one."

    def clean(self) -> dict:
        cleaned = super().clean()
        hs256 = cleaned.get("algorithm") == PartnerJwtKey.Algorithm.HS256
        field = "secret" if hs256 else "key"
        material = (cleaned.get("secret") if hs256 else cleaned.get("key")) or ""
        kept = self.instance.pk and self.instance.algorithm == cleaned.get("algorithm")
        if not material and kept:
            material = self.instance.key
        if not material:
            self.add_error(field, "A shared secret or a public key is required.")
        cleaned["key"] = material
        return cleaned

    def _post_clean(self) -> None:
        super()._post_clean()
        # The model checks the key material; an HS256 problem belongs under the field it was typed in.
        if self.cleaned_data.get("algorithm") == PartnerJwtKey.Algorithm.HS256 and "key" in self._errors:
            self._errors.setdefault("secret", self.error_class()).extend(self._errors.pop("key"))


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
