from django.apps import AppConfig


class LiveDataConfig(AppConfig):
    name = "livedata"
    verbose_name = "Live data"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Workbooks arrive through every ingestion path of retrieval (command, upload API, admin).
        from livedata.services import register_workbook_format

        register_workbook_format()
        # A workbook row goes by every path (the API, the admin, a collection's
        # cascade), so its Parquet files follow the row itself, after commit:
        # a rolled-back delete keeps them.
        from django.db.models.signals import post_delete

        from livedata.models import Workbook
        from livedata.services import workbook_files_forget

        post_delete.connect(workbook_files_forget, sender=Workbook, dispatch_uid="workbook-files-forget")
