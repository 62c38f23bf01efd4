from django.apps import AppConfig


class WorkbenchConfig(AppConfig):
    """The administrators' workbench: retrieval tests, the quality dashboard, exports, the answer inspector."""

    name = "workbench"
    verbose_name = "Workbench"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The conversation admin shows each answer through the inspector's reading view (with its trace).
        from conversations.facade import answer_reader_install
        from workbench.inspector import answers_read

        answer_reader_install(answers_read)
