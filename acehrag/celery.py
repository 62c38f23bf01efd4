"""Celery application. Without CELERY_BROKER_URL tasks run eagerly in-process."""
import os

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "acehrag.settings")

app = Celery("acehrag")
app.config_from_object("django.conf:settings", namespace="CELERY")
if not app.conf.broker_url:
    # Eager mode still prepares a producer pool for a broker; kombu's in-memory transport, named with a
    # host, keeps it from warning "No hostname was supplied" on every command (nothing is ever sent there).
    app.conf.broker_url = "memory://localhost/"
app.autodiscover_tasks()


@after_setup_logger.connect
@after_setup_task_logger.connect
def structured_worker_logs(logger, **kwargs):
    """Workers keep Celery's handlers and levels (``--loglevel``) but write the same JSON lines as web processes."""
    from django.conf import settings

    from kernel.telemetry.logs import formatter

    for handler in logger.handlers:
        handler.setFormatter(formatter(settings.LOG_FORMAT))
