"""Checks requirements/*.txt against the requirements/*.in they lock: `python scripts/check_locks.py [DIR]`.

A lock is stale, and this exits 1 naming why, when its input asks for a package the lock lacks or
pins at a version the input does not allow, when the lock still says a package comes from an input
that no longer lists it, when a pinned package carries no sha256 hash, or when two locks pin one
package at different versions. Offline: it reads the files `make lock` (uv pip compile) wrote.
"""
from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s\\;]+)")
FROM_INPUT = re.compile(r"^\s*#\s+(?:via\s+)?-r\s+(\S+\.in)\s*$")


def input_requirements(path: Path, seen: frozenset[Path] = frozenset()) -> dict[str, Requirement]:
    """The requirements an input file asks for, with those of the inputs it includes (``-r``)."""
    found: dict[str, Requirement] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split(" #")[0].strip()
        if not line or line.startswith(("#", "-c", "--")):
            continue
        if line.startswith("-r"):
            included = (path.parent / line[2:].strip()).resolve()
            if included not in seen:
                found.update(input_requirements(included, seen | {path.resolve()}))
            continue
        requirement = Requirement(line)
        found[canonicalize_name(requirement.name)] = requirement
    return found


def lock_entries(path: Path) -> tuple[dict[str, str], set[str], dict[str, set[str]]]:
    """A lock's pins (name → version), the names pinned without a hash, and each name's ``-r`` inputs."""
    pins: dict[str, str] = {}
    unhashed: set[str] = set()
    inputs: dict[str, set[str]] = defaultdict(set)
    current = None
    hashed = True
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            if current and not hashed:
                unhashed.add(current)
            current, hashed = canonicalize_name(match.group(1)), False
            pins[current] = match.group(3)
        elif current and "--hash=sha256:" in line:
            hashed = True
        elif current and (source := FROM_INPUT.match(line)):
            inputs[current].add(Path(source.group(1)).name)
    if current and not hashed:
        unhashed.add(current)
    return pins, unhashed, inputs


def findings(directory: Path) -> list[str]:
    problems: list[str] = []
    pinned_by_lock: dict[str, dict[str, str]] = {}
    for source in sorted(directory.glob("*.in")):
        lock = source.with_suffix(".txt")
        if not lock.exists():
            problems.append(f"{source.name}: no lock {lock.name} (run `make lock`)")
            continue
        wanted = input_requirements(source)
        pins, unhashed, inputs = lock_entries(lock)
        pinned_by_lock[lock.name] = pins
        for name, requirement in sorted(wanted.items()):
            if name not in pins:
                problems.append(f"{lock.name}: {requirement} is asked for by {source.name} but not locked")
            elif not requirement.specifier.contains(pins[name], prereleases=True):
                problems.append(f"{lock.name}: {name}=={pins[name]} does not satisfy {requirement} "
                                f"({source.name})")
        for name, sources in sorted(inputs.items()):
            for named in sorted(sources):
                listed = directory / named
                if not listed.exists() or name not in input_requirements(listed):
                    problems.append(f"{lock.name}: {name} is locked as coming from {named}, which no longer "
                                    "asks for it")
        problems += [f"{lock.name}: {name} is pinned without a sha256 hash" for name in sorted(unhashed)]
    versions: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for lock_name, pins in pinned_by_lock.items():
        for name, version in pins.items():
            versions[name].add((version, lock_name))
    for name, seen in sorted(versions.items()):
        if len({version for version, _ in seen}) > 1:
            problems.append(f"{name} is pinned differently: " + ", ".join(f"{v} in {l}" for v, l in sorted(seen)))
    return problems


def main(argv: list[str]) -> int:
    directory = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "requirements"
    problems = findings(directory)
    for problem in problems:
        print(f"stale lock: {problem}")
    if not problems:
        locks = sorted(p.name for p in directory.glob("*.in"))
        print(f"locks current: {', '.join(locks)} each locked with every pin hashed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
