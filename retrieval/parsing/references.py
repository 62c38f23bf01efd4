"""Legal references for chunks ("Qanun Aceh Nomor 1 Tahun 2024 Pasal 8 ayat (2)-(3)")."""
from __future__ import annotations

from bisect import bisect_left

from .segments import Section
from .splitting import AYAT_PENJ_RE, AYAT_RE, ITEM_PENJ_RE, ITEM_RE, markers

__all__ = ["reference"]


def _range(first: str, last: str) -> str:
    return first if first == last else f"{first}-{last}"


def _governing(found: list[tuple[int, str]], start: int, end: int) -> list[tuple[int, str]]:
    """Markers inside [start, end) plus the one in force at ``start`` (markers are sorted)."""
    lo = bisect_left(found, (start, ""))
    hi = bisect_left(found, (end, ""))
    inside = found[lo:hi]
    if lo > 0 and (not inside or inside[0][0] > start):
        inside = [found[lo - 1]] + inside
    return inside


def _section_markers(text: str, sec: Section, cache: dict) -> tuple[list, list]:
    key = id(sec)
    found = cache.get(key)
    if found is None:
        in_penj = sec.kind == "penjelasan"
        found = (
            markers(AYAT_PENJ_RE if in_penj else AYAT_RE, text, sec.start, sec.end),
            markers(ITEM_PENJ_RE if in_penj else ITEM_RE, text, sec.start, sec.end),
        )
        cache[key] = found
    return found


def _detail(text: str, sec: Section, start: int, end: int, cache: dict) -> str:
    """" ayat (2)-(3)", " ayat (2) huruf c-f", " angka 5-9" or "" for a piece of ``sec``."""
    ayat_markers, all_items = _section_markers(text, sec, cache)
    ayat = _governing(ayat_markers, start, end)
    detail = ""
    scope_s, scope_e = sec.start, sec.end
    if ayat:
        detail = f" ayat ({ayat[0][1]})" if len(ayat) == 1 else f" ayat ({ayat[0][1]})-({ayat[-1][1]})"
        if len(ayat) > 1:
            return detail
        idx = ayat_markers.index(ayat[0])
        scope_s = ayat[0][0]
        scope_e = ayat_markers[idx + 1][0] if idx + 1 < len(ayat_markers) else sec.end
        if start <= scope_s and end >= scope_e:
            return detail
    lo = bisect_left(all_items, (scope_s, ""))
    hi = bisect_left(all_items, (scope_e, ""))
    item_markers = all_items[lo:hi]
    if not item_markers:
        return detail
    lettered = item_markers[0][1].isalpha()
    same = [m for m in item_markers if m[1].isalpha() == lettered]
    items = _governing(same, start, end)
    if not items:
        return detail
    word = "huruf" if lettered else "angka"
    return f"{detail} {word} {_range(items[0][1], items[-1][1])}"


def reference(cite: str | None, text: str, secs: list[Section], start: int, end: int, cache: dict) -> str | None:
    if not cite:
        return None
    first, last = secs[0], secs[-1]
    whole = len(secs) > 1 or (start <= first.start and end >= first.end)
    detail = "" if whole else _detail(text, first, start, end, cache)
    kind = first.ref_kind
    if kind == "pasal":
        if first.label is None:
            return f"{cite} {first.path[-1]}" if first.path else cite
        num = _range(first.label, last.label or first.label)
        if first.container:
            return f"{cite} Pasal {first.container} (Pasal {num}{detail})"
        return f"{cite} Pasal {num}{detail}"
    if kind == "penjelasan":
        if first.label is None:
            return f"Penjelasan {cite}"
        num = _range(first.label, last.label or first.label)
        if first.container:
            return f"Penjelasan {cite} Pasal {first.container} (Pasal {num}{detail})"
        return f"Penjelasan {cite} Pasal {num}{detail}"
    if kind == "penjelasan_umum":
        return f"Penjelasan Umum {cite}"
    if kind == "diktum":
        return f"{cite} Diktum {_range(first.label, last.label or first.label)}"
    if kind == "preamble":
        if len(secs) == 1 and first.label:
            return f"{cite} {first.label}{detail if first.label in ('Menimbang', 'Mengingat', 'Memperhatikan') else ''}"
        return f"{cite} Pembukaan"
    if kind == "closing":
        return f"{cite} Penutup"
    if kind == "lampiran":
        return f"{first.label or 'Lampiran'} {cite}"
    if kind == "struct":
        return f"{cite} {first.label}" if first.label else cite
    return None
