from django.apps import AppConfig


class LiveDataConfig(AppConfig):
    name = "livedata"
    verbose_name = "Live data"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Workbooks arrive through every ingestion path of retrieval (command, upload API, admin).
        from livedata.services import register_workbook_format

        register_workbook_format()
