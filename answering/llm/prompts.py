"""Prompts live as files beside this module, one per purpose and language."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

PROMPT_DIR = Path(__file__).resolve().parent / "prompts"


@lru_cache(maxsize=None)
def prompt(name: str, language: str | None = None) -> str:
    """``name.<language>.md`` when it exists (id/en), else ``name.md``."""
    if language:
        localised = PROMPT_DIR / f"{name}.{language}.md"
        if localised.exists():
            return localised.read_text(encoding="utf-8").strip()
        fallback = PROMPT_DIR / f"{name}.id.md"
        if fallback.exists():
            return fallback.read_text(encoding="utf-8").strip()
    return (PROMPT_DIR / f"{name}.md").read_text(encoding="utf-8").strip()
