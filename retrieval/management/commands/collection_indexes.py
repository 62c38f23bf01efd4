"""Staff command: the large collections' own vector indexes (retrieval/collection_indexes.py)."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from retrieval.services import collection_index_plan, collection_indexes_sync


class Command(BaseCommand):
    help = ("Build a vector index for each collection large enough to need one (a search scoped to it then walks "
            "its passages only) and drop the ones that no longer qualify.")

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Say what would be built and dropped; change nothing.")
        parser.add_argument("--maintenance-work-mem", metavar="SIZE",
                            help="Memory for each build, e.g. 2GB (default: the server's maintenance_work_mem).")

    def handle(self, *args, **options):
        plan = collection_index_plan()
        for name, collection in sorted(plan.wanted.items(), key=lambda item: item[1]):
            state = "kept" if name in plan.existing else "to build"
            self.stdout.write(f"{collection}: {plan.chunks[collection]:,} of {plan.total:,} passages, {state} ({name})")
        if not plan.wanted:
            self.stdout.write("No collection needs an index of its own.")
        for name in plan.to_drop:
            self.stdout.write(f"{plan.existing[name] or name}: no longer qualifies, to drop ({name})")
        if options["dry_run"]:
            return
        done = collection_indexes_sync(maintenance_work_mem=options.get("maintenance_work_mem"))
        if done.built or done.dropped:
            self.stdout.write(f"built {len(done.built)}, dropped {len(done.dropped)} in {done.seconds:.1f}s")
