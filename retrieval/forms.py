from pathlib import Path

from django import forms

from retrieval.ingestion import IngestOptions, IngestOutcome, document_ingest_bytes, source_key_for
from retrieval.formats import accepted_extensions


class DocumentUploadForm(forms.Form):
    file = forms.FileField()
    collection_id = forms.CharField(max_length=100, initial="JDIH")
    title = forms.CharField(max_length=500, required=False)
    confidential = forms.BooleanField(required=False)
    owning_org_unit = forms.CharField(max_length=200, required=False)
    min_position_level = forms.IntegerField(min_value=0, max_value=1000, required=False)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if Path(upload.name).suffix.lower() not in accepted_extensions():
            raise forms.ValidationError(f"Unsupported type; expected one of {', '.join(sorted(accepted_extensions()))}")
        return upload

    def ingest(self, *, requested_by: str) -> IngestOutcome:
        data = self.cleaned_data
        upload = data["file"]
        collection = data["collection_id"].strip()
        name = Path(upload.name).name
        return document_ingest_bytes(
            data=upload.read(),
            filename=name,
            source_key=source_key_for(collection, f"upload/{name}"),
            options=IngestOptions(
                collection_id=collection,
                title=data["title"] or None,
                confidential=data["confidential"],
                owning_org_unit=data["owning_org_unit"] or None,
                min_position_level=data["min_position_level"],
            ),
        )
