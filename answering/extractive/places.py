"""Places a question names, and which of them the cited passages must state (the answerability gate's check).

A place the question asks about ("UMK Kota Banda Aceh", "ibu kota Kabupaten Simeulue") is met only by what the
answer quotes or the cited document's identity. Where the asker says they live or work, in a clause of their own
before the ask ("aku kerja di pabrik CPO di Nagan Raya, gaji minimum sektoralnya brp?"), is their circumstance:
when it is one of Aceh's regencies or cities, an Aceh-wide or national instrument holds there, so it is met by any
cited document whose title names no regency, city or village. A place outside Aceh is met so only when the ask
names Aceh itself: the asker has said which province's rule they want.
"""
from __future__ import annotations

import re
from typing import Iterable

ACEH_PLACES = (
    "Aceh Barat Daya", "Aceh Barat", "Aceh Besar", "Aceh Jaya", "Aceh Selatan", "Aceh Singkil", "Aceh Tamiang",
    "Aceh Tengah", "Aceh Tenggara", "Aceh Timur", "Aceh Utara", "Bener Meriah", "Bireuen", "Gayo Lues", "Nagan Raya",
    "Pidie Jaya", "Pidie", "Simeulue", "Banda Aceh", "Langsa", "Lhokseumawe", "Sabang", "Subulussalam",
)
PROVINCES = (
    "Sumatera Utara", "Sumatera Barat", "Sumatera Selatan", "Riau", "Kepulauan Riau", "Jambi", "Bengkulu", "Lampung",
    "Bangka Belitung", "Jakarta", "Jawa Barat", "Jawa Tengah", "Jawa Timur", "Yogyakarta", "Banten", "Bali",
    "Nusa Tenggara Barat", "Nusa Tenggara Timur", "Kalimantan Barat", "Kalimantan Tengah", "Kalimantan Selatan",
    "Kalimantan Timur", "Kalimantan Utara", "Sulawesi Utara", "Sulawesi Tengah", "Sulawesi Selatan", "Sulawesi Tenggara",
    "Sulawesi Barat", "Gorontalo", "Maluku Utara", "Maluku", "Papua Barat", "Papua", "Medan", "Padang", "Bogor",
)
NAMED_PLACE = re.compile(r"\b(?:kabupaten|kota|kecamatan|gampong|desa|provinsi|kab\.|wilayah\s+sungai|sungai|krueng|pulau)"
                         r"\s+(?P<name>(?-i:[A-Z][\w']+(?:\s+[A-Z][\w']+){0,2}))", re.I)


# The asker's own circumstance, said first in a clause of its own: "aku kerja di …, …", "Saya tinggal di … .".
SELF_CONTEXT = re.compile(r"^\W*(?:aku|saya|sy|gw|gue|gua|kami|i|i'm|we)\b[^,.;?!]*[,.;]", re.I)


def places(question: str) -> list[str]:
    """The places the text names: Aceh's regencies and cities, other provinces, "kabupaten/kota/gampong …"."""
    found: list[str] = []
    for place in (*ACEH_PLACES, *PROVINCES):
        if _names(question, place) and not any(place.lower() in f.lower() for f in found):
            found.append(place)
    for match in NAMED_PLACE.finditer(question):
        name = match.group("name")
        if not any(name.lower() in f.lower() or f.lower() in name.lower() for f in found):
            found.append(name)
    return found


def unmet_places(question: str, stated_where: str, titles: Iterable[str]) -> list[str]:
    """The places ``question`` names that ``stated_where`` (the quoted text and the cited documents' subjects,
    lower-cased) does not state; an Aceh regency or city named only in the asker's own circumstance is met when no
    cited title names a regency, city or village; a place outside Aceh is met so only when the ask itself names Aceh
    ("Saya tinggal di Medan, UMP Aceh berapa?"), since Aceh's rules do not hold there."""
    context = SELF_CONTEXT.match(question)
    asked = question[context.end():] if context else question
    titles = list(titles)
    unmet = []
    for place in places(question):
        if place.lower() in stated_where:
            continue
        if context and not _names(asked, place) and not any(map(_names_local, titles)) \
                and (place in ACEH_PLACES or _names(asked, "aceh")):
            continue            # where the asker works or lives, asking Aceh's rule: a province-wide or national one
        unmet.append(place)
    return unmet


# A regency, city or village a title is about ("Pembentukan Kabupaten Pidie Jaya"); "Provinsi Aceh" is the province.
LOCAL_PLACE = re.compile(r"\b(?:kabupaten|kota|kab\.|kecamatan|gampong|desa)\s+(?-i:[A-Z])", re.I)


def _names_local(title: str) -> bool:
    return bool(LOCAL_PLACE.search(title)) or any(_names(title, place) for place in ACEH_PLACES)


def _names(text: str, place: str) -> bool:
    return bool(re.search(rf"\b{re.escape(place.lower())}\b", text.lower()))
