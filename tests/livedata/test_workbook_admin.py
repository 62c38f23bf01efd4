"""The admin: a workbook uploaded on the document upload page is catalogued and browsable."""
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from livedata.models import Workbook
from tests.livedata.files import POPULATION, xlsx_bytes

pytestmark = pytest.mark.django_db


def test_the_admin_upload_accepts_a_workbook_and_the_catalogue_shows_its_sheets(admin_client, django_capture_on_commit_callbacks):
    from retrieval.models import Collection

    Collection.objects.create(id="SatuData")   # the upload page offers existing collections
    with django_capture_on_commit_callbacks(execute=True):  # the upload is an Ingestion run by the task
        response = admin_client.post("/admin/retrieval/document/upload/", {
            "file": SimpleUploadedFile("penduduk_2023.xlsx", xlsx_bytes({"Penduduk": POPULATION})),
            "collection": "SatuData"}, follow=True)
    assert response.status_code == 200
    workbook = Workbook.objects.get()
    assert workbook.row_count == 5 and workbook.document.collection_id == "SatuData"
    listing = admin_client.get("/admin/livedata/workbook/")
    assert listing.status_code == 200 and b"penduduk 2023" in listing.content
    page = admin_client.get(f"/admin/livedata/workbook/{workbook.pk}/change/")
    assert page.status_code == 200 and b"Jumlah Penduduk (BIGINT)" in page.content
