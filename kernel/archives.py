"""ZIP-based uploads (DOCX, XLSX, ODS) checked before any parser opens them.

A few kilobytes of ZIP can inflate to gigabytes (a decompression bomb), hold
a million members, or carry XML whose DTD defines entities that expand
exponentially ("billion laughs") or fetch external files. The parsers that
read these formats (python-docx, calamine) trust the archive, so
``archive_check`` refuses, with the reason, before they run:

- more members than ``max_members``;
- a member, or all of them together, larger uncompressed than the bounds
  (each member is inflated in a stream and counted, so a header that
  understates its size is caught by zipfile's size and CRC checks);
- a member that inflates more than ``max_ratio`` times (from 1 MB up);
- an XML member with a DTD or entity declarations (OOXML and ODF never
  carry one), read with ``defusedxml`` up to its root element only.
"""
from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, iterparse

CHUNK = 1 << 16
RATIO_FLOOR = 1 << 20          # a small member may compress extremely well (an empty sheet): no ratio below this


class UnsafeArchive(ValueError):
    """The archive was refused; ``str()`` is the one-line reason."""


@dataclass(frozen=True)
class FileBounds:
    """What one uploaded file may cost to parse (``ACEH_RAG_INGESTION__*``; these are the defaults)."""

    max_members: int = 10_000                     # ZIP members
    max_member_bytes: int = 256 * 1024 * 1024     # one member, inflated
    max_total_bytes: int = 512 * 1024 * 1024      # all members, inflated
    max_ratio: int = 200                          # inflated / compressed, per member from 1 MB
    pdf_max_pages: int = 5_000
    html_max_depth: int = 512                     # nested elements
    pdf_max_depth: int = 256                      # nested PDF arrays and dictionaries
    parse_timeout_seconds: float = 600            # per file, and per OCR page read; 0 parses in-process, unbounded
    parse_memory_mb: int = 2048                   # the parsing child's address space; 0 leaves it unlimited


def archive_check(data: bytes, bounds: FileBounds) -> None:
    """Refuse ``data`` (a ZIP) that breaks ``bounds`` or carries XML with a DTD; ``BadZipFile`` if corrupt."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = archive.infolist()
        if len(members) > bounds.max_members:
            raise UnsafeArchive(f"archive has {len(members):,} members (at most {bounds.max_members:,})")
        declared = sum(m.file_size for m in members)
        if declared > bounds.max_total_bytes:
            raise UnsafeArchive(f"archive inflates to {declared:,} bytes (at most {bounds.max_total_bytes:,})")
        total = 0
        for member in members:
            total += _inflated_size(archive, member, bounds, room=bounds.max_total_bytes - total)
            if member.filename.endswith((".xml", ".rels")):
                _xml_prolog_check(archive, member)


def _inflated_size(archive: zipfile.ZipFile, member: zipfile.ZipInfo, bounds: FileBounds, *, room: int) -> int:
    name = member.filename
    if member.file_size > bounds.max_member_bytes:
        raise UnsafeArchive(f"{name} inflates to {member.file_size:,} bytes (at most {bounds.max_member_bytes:,})")
    size = 0
    with archive.open(member) as stream:
        while chunk := stream.read(CHUNK):
            size += len(chunk)
            if size > min(bounds.max_member_bytes, room):
                raise UnsafeArchive(f"{name} inflates past the archive's bounds")
    if size >= RATIO_FLOOR and size > bounds.max_ratio * max(member.compress_size, 1):
        ratio = size // max(member.compress_size, 1)
        raise UnsafeArchive(f"{name} inflates {ratio:,} times (at most {bounds.max_ratio:,}): a decompression bomb")
    return size


def _xml_prolog_check(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> None:
    """DTDs and entities are refused by defusedxml as soon as they appear, which is before the root."""
    with archive.open(member) as stream:
        try:
            for _event, _element in iterparse(stream, events=("start",), forbid_dtd=True):
                return
        except DefusedXmlException as exc:
            raise UnsafeArchive(f"{member.filename} declares a DTD or entities ({type(exc).__name__}), "
                                "which these formats never need") from None
        except ParseError:
            return   # malformed XML is the parser's to report
