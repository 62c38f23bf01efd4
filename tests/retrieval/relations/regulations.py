"""Hand-built regulations for the legal-relation tests (shaped like the corpus texts)."""
from __future__ import annotations


def regulation(kind: str, number: str, year: int, subject: str, articles: list[str], *,
               promulgated: str | None = None) -> str:
    """``kind`` upper case ("PERATURAN GUBERNUR ACEH"); ``articles`` become Pasal 1..n."""
    promulgated = promulgated or f"2 Januari {year}"
    body = "\n".join(f"Pasal {i}\n{text}\n" for i, text in enumerate(articles, start=1))
    return (
        f"{kind}\nNOMOR {number} TAHUN {year}\nTENTANG\n{subject.upper()}\n\n"
        "DENGAN RAHMAT ALLAH YANG MAHA KUASA\nGUBERNUR ACEH,\n\n"
        "Menimbang : bahwa perlu menetapkan peraturan ini;\n"
        "Mengingat : 1. Undang-Undang Nomor 11 Tahun 2006 tentang Pemerintahan Aceh;\n\n"
        "MEMUTUSKAN:\nMenetapkan : PERATURAN INI.\n\n"
        "BAB I\nKETENTUAN UMUM\n\n"
        f"{body}\n"
        f"Pasal {len(articles) + 1}\nPeraturan ini mulai berlaku pada tanggal diundangkan.\n\n"
        f"Ditetapkan di Banda Aceh\npada tanggal 1 Januari {year}\nGUBERNUR ACEH,\n\nMUZAKIR MANAF\n\n"
        f"Diundangkan di Banda Aceh\npada tanggal {promulgated}\n"
    )


def pergub(number: str, year: int, subject: str, articles: list[str], **kw) -> str:
    return regulation("PERATURAN GUBERNUR ACEH", number, year, subject, articles, **kw)


def qanun(number: str, year: int, subject: str, articles: list[str], **kw) -> str:
    return regulation("QANUN ACEH", number, year, subject, articles, **kw)
