"""Staff operations on partner API keys stored in the database: list and revoke."""
from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from acehrag.models import ApiKey
from acehrag.services import api_key_revoke


def _when(value) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else "—"


class Command(BaseCommand):
    help = ("List or revoke the partner API keys stored in the database (create them with create_api_key or the "
            "admin). Keys from ACEH_RAG_API__KEYS live in the environment and are not listed.")

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True, metavar="{list,revoke}")
        listing = actions.add_parser("list", help="Name, prefix, state, created, last used, revoked.")
        listing.add_argument("--active", action="store_true", help="Only keys that are not revoked.")
        revoke = actions.add_parser("revoke", help="Revoke keys by name or prefix; the next call with them is 401.")
        revoke.add_argument("keys", nargs="+", metavar="NAME_OR_PREFIX", help="Key names or their 8-character prefix.")

    def handle(self, *args, action, **options):
        getattr(self, f"_{action}")(**options)

    def _list(self, *, active, **options):
        keys = ApiKey.objects.order_by("name")
        if active:
            keys = keys.filter(revoked_at__isnull=True)
        self.stdout.write(f"{'name':<30} {'prefix':<10} {'state':<8} {'created':<17} {'last used':<17} revoked")
        for key in keys:
            state = "active" if key.is_active else "revoked"
            self.stdout.write(f"{key.name:<30} {key.prefix:<10} {state:<8} {_when(key.created_at):<17} "
                              f"{_when(key.last_used_at):<17} {_when(key.revoked_at)}")
        configured = len(settings.ACEH_RAG.api.keys)
        if configured:
            self.stdout.write(f"(+ {configured} key(s) from ACEH_RAG_API__KEYS, managed in the environment)")

    def _revoke(self, *, keys, **options):
        found = []
        for value in keys:
            matches = list(ApiKey.objects.filter(name=value)) or list(ApiKey.objects.filter(prefix=value))
            if len(matches) != 1:
                raise CommandError(f"{value!r} names {len(matches)} keys; give the exact name or prefix")
            found.append(matches[0])
        for key in found:
            if not key.is_active:
                self.stdout.write(f"{key.name} ({key.prefix}) was already revoked")
                continue
            api_key_revoke(key=key)
            self.stdout.write(f"revoked {key.name} ({key.prefix})")
