from django.apps import AppConfig


class AnsweringConfig(AppConfig):
    name = "answering"
    default_auto_field = "django.db.models.BigAutoField"
