"""Upload checks: the bytes must look like the type the file name claims."""
from __future__ import annotations

from pathlib import Path

from retrieval.formats import handler_for

TEXT_EXTENSIONS = {".txt", ".md", ".html", ".htm"}


def content_matches_extension(data: bytes, filename: str) -> bool:
    extension = Path(filename).suffix.lower()
    registered = handler_for(filename)
    if registered:
        return registered.content_matches(data)
    if extension == ".pdf":
        return data.lstrip()[:5] == b"%PDF-"
    if extension == ".docx":
        return data[:4] == b"PK\x03\x04"
    if extension in TEXT_EXTENSIONS:
        return b"\x00" not in data[:8192]
    return False
