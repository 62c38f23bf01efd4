"""Register, list and remove MCP sources (streamable-HTTP tool servers)."""
from django.core.management.base import BaseCommand, CommandError

from kernel.outbound import OutboundRefused
from workspaces.models import McpSource
from workspaces.services import mcp_source_add, mcp_source_remove


class Command(BaseCommand):
    help = "Manage MCP sources: add NAME URL, list, remove NAME"

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        add = sub.add_parser("add", help="register (or update) a source")
        add.add_argument("name", help="source id (a slug) used in mcp_source_ids")
        add.add_argument("url", help="streamable-HTTP endpoint, e.g. http://127.0.0.1:9000/mcp")
        add.add_argument("--title", help="display name (default: the id)")
        add.add_argument("--governed", action="store_true", help="withhold under a document scope (default: public)")
        add.add_argument("--header", action="append", default=[], metavar="K=V", help="request header (repeatable); never shown back")
        add.add_argument("--search-tool", default="search", help="tool called with the question (default: search)")
        add.add_argument("--tool", action="append", default=[], dest="tools", help="another tool offered to the agent (repeatable)")
        add.add_argument("--timeout", type=float, default=10.0, help="seconds per call (default: 10)")
        sub.add_parser("list", help="list sources (headers are not shown)")
        remove = sub.add_parser("remove", help="remove a source")
        remove.add_argument("name")

    def handle(self, *args, action, **options):
        if action == "add":
            headers = {}
            for item in options["header"]:
                key, sep, value = item.partition("=")
                if not sep or not key.strip():
                    raise CommandError(f"--header takes K=V, got {item!r}")
                headers[key.strip()] = value
            try:
                source = mcp_source_add(source_id=options["name"], name=options["title"] or options["name"],
                                        url=options["url"], governed=options["governed"], headers=headers,
                                        search_tool=options["search_tool"], allowed_tools=options["tools"],
                                        timeout_seconds=options["timeout"])
            except OutboundRefused as exc:
                raise CommandError(exc.message) from exc
            self.stdout.write(f"saved {source.id} ({source.visibility}) → {source.url}")
        elif action == "list":
            for source in McpSource.objects.order_by("id"):
                headers = ", ".join(sorted(source.headers)) or "-"
                self.stdout.write(f"{source.id}\t{source.visibility}\t{'enabled' if source.enabled else 'disabled'}\t"
                                  f"{source.url}\ttools={','.join(source.tool_names())}\theaders={headers}")
        elif not mcp_source_remove(source_id=options["name"]):
            raise CommandError(f"no MCP source {options['name']!r}")
        else:
            self.stdout.write(f"removed {options['name']}")
