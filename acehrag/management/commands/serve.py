"""Migrate, bootstrap and serve with uvicorn (``acehrag/serving.py``) in one process.

One process keeps the embedded PostgreSQL up from migration to shutdown.
"""
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = ("Apply migrations, collect the static files, ensure a dev API key and the sample corpus, "
            "then serve the API, the admin and the docs with uvicorn.")

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1", help="Address to listen on (default 127.0.0.1).")
        parser.add_argument("--port", type=int, default=8000, help="Port to listen on (default 8000).")
        parser.add_argument("--no-bootstrap", action="store_true", help="Skip the dev key and sample corpus.")

    def handle(self, *args, host, port, no_bootstrap, **options):
        call_command("migrate", interactive=False, verbosity=0)
        # The admin, /docs and /redoc load their CSS and JS from STATIC_ROOT through whitenoise.
        call_command("collectstatic", interactive=False, verbosity=0)
        if not no_bootstrap:
            call_command("bootstrap")
        self.stdout.write(f"Serving Aceh RAG on http://{host}:{port} (start page: /, API docs: /docs, admin: /admin/)")
        self.stdout.flush()
        from acehrag.serving import serve

        serve(host, port)
