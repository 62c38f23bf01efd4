from django import forms
from django.contrib import admin

from kernel.outbound import OutboundRefused, outbound_url_check
from workspaces.models import McpSource, Notebook, Workspace, WorkspaceMember


class WorkspaceMemberInline(admin.TabularInline):
    model = WorkspaceMember
    extra = 0
    fields = ["subject", "role", "added_at"]
    readonly_fields = ["added_at"]


@admin.register(Workspace)
class WorkspaceAdmin(admin.ModelAdmin):
    list_display = ["name", "created_by", "whole_corpus", "created_at"]
    search_fields = ["name", "created_by", "members__subject"]
    readonly_fields = ["id", "created_by", "created_at"]
    fields = ["id", "name", "created_by", "created_at", "whole_corpus", "collection_ids", "document_ids", "mcp_source_ids"]
    inlines = [WorkspaceMemberInline]


@admin.register(Notebook)
class NotebookAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "whole_corpus", "created_at"]
    search_fields = ["name", "owner"]
    readonly_fields = ["id", "owner", "created_at"]
    fields = ["id", "name", "owner", "created_at", "whole_corpus", "collection_ids", "document_ids", "mcp_source_ids"]


class McpSourceForm(forms.ModelForm):
    """Header values are secrets: a blank field keeps the stored headers, and they are never shown back."""

    headers = forms.JSONField(required=False, widget=forms.PasswordInput(render_value=False),
                              help_text='JSON object, e.g. {"Authorization": "Bearer …"}; leave blank to keep the stored headers')

    class Meta:
        model = McpSource
        fields = ["id", "name", "url", "visibility", "search_tool", "allowed_tools", "timeout_seconds", "enabled", "headers"]

    def clean_url(self):
        url = self.cleaned_data.get("url", "").strip()
        try:
            outbound_url_check(url)
        except OutboundRefused as exc:
            raise forms.ValidationError(exc.message) from exc
        return url

    def clean_headers(self):
        value = self.cleaned_data.get("headers")
        if value in (None, "", {}):
            return self.instance.headers if self.instance.pk else {}
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise forms.ValidationError("Headers must be a JSON object of strings")
        return value


@admin.register(McpSource)
class McpSourceAdmin(admin.ModelAdmin):
    form = McpSourceForm
    list_display = ["id", "name", "url", "visibility", "search_tool", "enabled"]
    list_filter = ["visibility", "enabled"]
    search_fields = ["id", "name", "url"]
