from pathlib import Path

from django import forms

from retrieval.ingestion import IngestOptions
from retrieval.formats import accepted_extensions
from retrieval.models import Collection, Ingestion
from retrieval.uploads import document_upload_accept


class DocumentUploadForm(forms.Form):
    file = forms.FileField(help_text=f"One of {', '.join(sorted(accepted_extensions()))}.")
    collection = forms.ModelChoiceField(queryset=Collection.objects.all(), help_text="Add collections under Collections.")
    title = forms.CharField(max_length=500, required=False, help_text="Leave blank to use the title found in the file.")
    confidential = forms.BooleanField(required=False, help_text="Visible only to callers with a verified identity.")
    owning_org_unit = forms.CharField(max_length=200, required=False,
                                      help_text="Only callers of this organisation unit see it; blank for everyone.")
    min_position_level = forms.IntegerField(min_value=0, max_value=1000, required=False,
                                            help_text="Only callers at this position level or higher; blank for everyone.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["collection"].initial = Collection.objects.filter(id="JDIH").first()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if Path(upload.name).suffix.lower() not in accepted_extensions():
            raise forms.ValidationError(f"Unsupported type; expected one of {', '.join(sorted(accepted_extensions()))}")
        return upload

    def request_ingestion(self, *, requested_by: str) -> Ingestion:
        """Queue the upload through the API's own acceptance rule; raises ``UploadTooLarge`` or ``UploadTypeUnsupported``."""
        data = self.cleaned_data
        options = IngestOptions.build(collection_id=data["collection"].pk, title=data["title"],
                                      confidential=data["confidential"], owning_org_unit=data["owning_org_unit"],
                                      min_position_level=data["min_position_level"])
        return document_upload_accept(file=data["file"], options=options, requested_by=requested_by)
