import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "acehrag.settings")

django_application = get_asgi_application()

from acehrag.edge import EdgeMiddleware  # noqa: E402 (settings must be configured first)

application = EdgeMiddleware(django_application)

import gc  # noqa: E402

# What is loaded by now (Django, the URL conf, every app's modules) lives as long as the process: frozen
# out of the cyclic collector, a full (generation 2) collection under load scans only what requests
# allocate. Unfrozen, each one paused every thread, the event loop and /healthz included, 135-175 ms,
# several times a minute under 50 streams.
gc.freeze()
