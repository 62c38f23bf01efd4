import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "acehrag.settings")

django_application = get_asgi_application()

from acehrag.edge import EdgeMiddleware  # noqa: E402 (settings must be configured first)

application = EdgeMiddleware(django_application)
