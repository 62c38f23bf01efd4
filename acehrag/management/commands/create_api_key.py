from django.core.management.base import BaseCommand, CommandError

from acehrag.models import ApiKey
from acehrag.services import api_key_create


class Command(BaseCommand):
    help = "Create a named partner API key and print it once: only its digest is stored, so copy it now."

    def add_arguments(self, parser):
        parser.add_argument("name", help="A unique name for the partner or integration, e.g. bappeda-portal.")

    def handle(self, *args, name, **options):
        if ApiKey.objects.filter(name=name).exists():
            raise CommandError(f"an API key named {name!r} already exists")
        _, raw_key = api_key_create(name=name)
        self.stdout.write(raw_key)
        # The key alone on stdout (scripts capture it); the warning beside it, on stderr.
        self.stderr.write(f"API key {name!r} created. It is shown only this once (only its digest is stored): "
                          "copy it now; revoke it with `manage.py api_keys revoke` if it is lost.")
