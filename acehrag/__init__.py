"""Aceh RAG project package: settings, URLs, ASGI, Celery, API, auth."""
from acehrag.celery import app as celery_app

__all__ = ["celery_app"]
