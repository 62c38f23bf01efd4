"""Public routes (no API key): the chat endpoint, cited passages, the widget page and script.

Included from ``acehrag/urls.py`` before the partner API, which is mounted at the root.
"""
from django.urls import path

from answering.public import feedback, views

urlpatterns = [
    path("api/public/rag/chat", views.public_chat, name="public-chat"),
    path("api/public/rag/feedback", feedback.public_feedback, name="public-chat-feedback"),
    path("api/public/rag/sources/<uuid:chunk_id>", views.public_source, name="public-chat-source"),
    path("widget", views.widget_page, name="public-widget"),
    path("widget.js", views.widget_script, name="public-widget-script"),
]
