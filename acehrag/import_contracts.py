"""Import-linter contract types for the app boundaries of ``.importlinter`` (run by ``lint-imports``).

``allow_list``: other packages may import an app only through the modules it names public (PostHog's
facade rule, tach's ``interfaces``), instead of a deny-list of its internals that goes stale as the
app grows. ``own_api_only``: an app's HTTP layer (any module named ``api``) is imported by its own
app and by the project package that wires the routers, never by another app.

Development tooling: nothing at run time imports this module.
"""
from __future__ import annotations

from importlinter import Contract, ContractCheck, fields, output


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _report(check: ContractCheck) -> None:
    for importer, imported, lines in check.metadata["illegal"]:
        output.print_error(f"- {importer} -> {imported} (l.{', '.join(map(str, lines))})", bold=False)
        output.new_line()


def _lines(graph, importer: str, imported: str) -> tuple[int, ...]:
    return tuple(detail["line_number"] for detail in graph.get_import_details(importer=importer, imported=imported))


class AllowListContract(Contract):
    """Modules of ``importers`` may import ``package`` only through ``public`` modules (and their submodules)."""

    type_name = "allow_list"

    package = fields.StringField()
    public = fields.ListField(subfield=fields.StringField())
    importers = fields.ListField(subfield=fields.StringField())

    def check(self, graph, verbose: bool) -> ContractCheck:
        package, public, importers = self.package, list(self.public), list(self.importers)  # type: ignore
        illegal = []
        for imported in sorted(graph.find_descendants(package) | {package}):
            if any(_within(imported, name) for name in public):
                continue
            for importer in sorted(graph.find_modules_that_directly_import(imported)):
                if _within(importer, package) or not any(_within(importer, name) for name in importers):
                    continue
                illegal.append((importer, imported, _lines(graph, importer, imported)))
        return ContractCheck(kept=not illegal, metadata={"illegal": illegal})

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print_error(f"Only {', '.join(self.public)} may be imported from {self.package}:", bold=False)  # type: ignore
        output.new_line()
        _report(check)


class OwnApiOnlyContract(Contract):
    """No app imports another app's ``api`` module; ``wiring`` (the project package) may import them all."""

    type_name = "own_api_only"

    apps = fields.ListField(subfield=fields.StringField())
    wiring = fields.ListField(subfield=fields.StringField())

    def check(self, graph, verbose: bool) -> ContractCheck:
        apps, wiring = list(self.apps), list(self.wiring)  # type: ignore
        illegal = []
        for app in apps:
            for imported in sorted(graph.find_descendants(app)):
                if "api" not in imported.split("."):
                    continue
                for importer in sorted(graph.find_modules_that_directly_import(imported)):
                    if _within(importer, app) or any(_within(importer, name) for name in wiring):
                        continue
                    illegal.append((importer, imported, _lines(graph, importer, imported)))
        return ContractCheck(kept=not illegal, metadata={"illegal": illegal})

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print_error("An app's api module imported by another app:", bold=False)
        output.new_line()
        _report(check)
