"""``manage.py embed_units`` caches the units a list question reads too (its list whole, past the usual bound)."""
from answering.management.commands.embed_units import chunk_units


def test_a_long_lists_whole_form_is_among_the_units_embedded_ahead():
    items = "\n".join(f"{chr(97 + n)}. kewajiban nomor {n + 1} pengelola pasar;" for n in range(14))
    units = chunk_units("body", f"Kewajiban pengelola pasar meliputi:\n{items}")
    lists = [unit for unit in units if unit.startswith("Kewajiban pengelola pasar meliputi:")]
    assert len(lists) == 2
    assert "n. kewajiban nomor 14" in max(lists, key=len) and "n. kewajiban nomor 14" not in min(lists, key=len)
