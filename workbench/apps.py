from django.apps import AppConfig


class WorkbenchConfig(AppConfig):
    """The administrators' workbench: retrieval tests, the quality dashboard, exports."""

    name = "workbench"
    verbose_name = "Workbench"
    default_auto_field = "django.db.models.BigAutoField"
