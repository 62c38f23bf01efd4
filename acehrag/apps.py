from django.apps import AppConfig


class AcehragConfig(AppConfig):
    name = "acehrag"
    verbose_name = "Aceh RAG access"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings

        from kernel.telemetry.metrics import configure_metrics
        from kernel.telemetry.tracing import configure_tracing

        configure_tracing(settings.ACEH_RAG.tracing)
        configure_metrics(settings.ACEH_RAG)
