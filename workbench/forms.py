from django import forms

from retrieval.facade.staff import collection_ids
from workbench.models import RetrievalTest


class RetrievalTestForm(forms.Form):
    query = forms.CharField(max_length=2000, widget=forms.TextInput(attrs={"size": 80, "autofocus": True}))
    mode = forms.ChoiceField(choices=[("hybrid", "Hybrid (fused)"), ("semantic", "Semantic"), ("lexical", "Lexical")])
    top_k = forms.IntegerField(min_value=1, max_value=50, initial=10, label="Top k")
    collections = forms.MultipleChoiceField(choices=lambda: [(c, c) for c in collection_ids()], required=False,
                                            help_text="None selected: every collection.")
    document_ids = forms.CharField(required=False, label="Document ids",
                                   help_text="Optional UUIDs, separated by spaces or commas.")
    identity = forms.ChoiceField(choices=RetrievalTest.Identity.choices, label="Test as")
    unit = forms.CharField(max_length=200, required=False, help_text="With a verified user: the organisation unit.")
    level = forms.IntegerField(min_value=0, max_value=1000, required=False, help_text="With a verified user: the position level.")

    def clean_document_ids(self):
        import uuid

        raw = self.cleaned_data["document_ids"].replace(",", " ").split()
        try:
            return tuple(uuid.UUID(value) for value in raw)
        except ValueError:
            raise forms.ValidationError("Each document id must be a UUID.")

    def clean_query(self):
        query = self.cleaned_data["query"].strip()
        if not query:
            raise forms.ValidationError("Type a query.")
        return query

    @classmethod
    def initial_from(cls, test: RetrievalTest) -> dict:
        return {"query": test.query, "mode": test.mode, "top_k": test.top_k, "collections": test.collection_ids,
                "document_ids": " ".join(test.document_ids), "identity": test.identity, "unit": test.unit,
                "level": test.level}
