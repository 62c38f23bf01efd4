from django.apps import AppConfig


class AcehragConfig(AppConfig):
    name = "acehrag"
    verbose_name = "Aceh RAG access"
    default_auto_field = "django.db.models.BigAutoField"
