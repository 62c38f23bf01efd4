"""Which files a command ingests, and the source key each is known by."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable


def discover_files(paths: Iterable[Path]) -> list[tuple[Path, str]]:
    """Expand files and folders (recursively) to ``(file, relative key)`` pairs.

    Hidden files are skipped; the key is the path relative to the folder given
    (the file name for a file given directly), so the same corpus ingested
    from another checkout keeps its source keys.
    """
    found: list[tuple[Path, str]] = []
    for root in paths:
        root = Path(root)
        if root.is_dir():
            for file in sorted(p for p in root.rglob("*") if p.is_file()):
                relative = file.relative_to(root)
                if any(part.startswith(".") for part in relative.parts):
                    continue
                found.append((file, f"{root.name}/{relative.as_posix()}"))
        else:
            found.append((root, root.name))
    return found


def source_key_for(collection_id: str, relative_key: str) -> str:
    return f"{collection_id}:{relative_key}"
