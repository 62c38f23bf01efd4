"""What `docker build -f docker/Dockerfile .` would send as its context, and whether it carries state.

The context is listed the way the Docker CLI lists it, by docker-py's implementation of the
.dockerignore rules (``docker.utils.build.exclude_paths``), so no daemon is needed. Exits 1, naming
each path, if the context holds anything an image must never carry: git history, a virtualenv,
``var/`` (the embedded database, uploads, the development API key), caches or test output.

    python scripts/docker_context.py [--root DIR] [--list]

(Docker always sends .dockerignore and the Dockerfile themselves; COPY leaves out what is ignored.)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docker.utils.build import exclude_paths

DOCKERFILE = "docker/Dockerfile"
# Path components that are state or local tooling, never code.
FORBIDDEN_PARTS = frozenset({
    ".git", ".venv", "var", "__pycache__", ".pytest_cache", ".hypothesis", ".schemathesis",
    "test-output", "staticfiles",
})
FORBIDDEN_SUFFIXES = (".pyc", ".env")


def context_paths(root: Path) -> list[str]:
    """Every file and folder of the build context, relative to ``root``, as Docker would send them."""
    ignore = root / ".dockerignore"
    patterns = [line.strip() for line in ignore.read_text().splitlines()] if ignore.exists() else []
    patterns = [p for p in patterns if p and not p.startswith("#")]
    return sorted(exclude_paths(str(root), patterns, dockerfile=DOCKERFILE))


def leaks(paths: list[str]) -> list[str]:
    """The context paths that carry state: the top-most offending path of each leak."""
    found = []
    for path in paths:
        parts = Path(path).parts
        if any(part in FORBIDDEN_PARTS for part in parts) or path.endswith(FORBIDDEN_SUFFIXES):
            if not any(path.startswith(prefix + "/") for prefix in found):
                found.append(path)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--list", action="store_true", help="print every file of the context")
    args = parser.parse_args(argv)
    paths = context_paths(args.root)
    files = [p for p in paths if (args.root / p).is_file()]
    size = sum((args.root / p).stat().st_size for p in files)
    bad = leaks(paths)
    print(f"build context of {args.root}: {len(files)} files, {size / 1e6:.1f} MB")
    if args.list:
        print("".join(f"  file {path}\n" for path in files), end="")
    if bad:
        print(f"the context carries state ({len(bad)} paths); add them to .dockerignore:")
        for path in bad[:40]:
            print(f"  {path}")
        return 1
    print("no state in the context (.git, .venv, var, caches, test output)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
