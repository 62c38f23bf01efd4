"""What a text layer left in a passage that no reader should see, taken out before a passage is cut into units
(and before a signature block is read).

Underscores outside words (emphasis markers: "infaq _; _ h. shadaqah", "_Nomor 18 Tahun 2001_"), carets before
words ("Pengendali ^Data ^Pribadi") and a word broken at a line's end and joined again with a space
("perundang- undangan", "Undang- Undang"). A word's own underscore ("nama_file"), a caret between numbers and a
hyphen before a list marker stay.
"""
from __future__ import annotations

import re

# A run of underscores standing alone (before punctuation it goes with its spaces), or at a word's edge.
_UNDERSCORE_RUN = r"(?:[ \t]*(?<!\w)_+(?!\w))+[ \t]*"
_UNDERSCORES_BEFORE_MARK = re.compile(_UNDERSCORE_RUN + r"(?=[;,.:)])")
_UNDERSCORES_ALONE = re.compile(_UNDERSCORE_RUN)
_UNDERSCORES_AT_EDGE = re.compile(r"(?<!\w)_+(?=\w)|(?<=[^\W_])_+(?!\w)")
# A caret before a word, before punctuation (with its spaces: "terdiri atas ^:"), or standing alone between spaces.
_CARETS = re.compile(r"\^+(?=[^\W\d_])|[ \t]*\^+(?=[;:,.)])|(?<=[ \t])\^+[ \t]+")
# "perundang- undangan": two letters, a hyphen, spaces, a letter that starts no list item ("barang- b. jasa").
_BROKEN_WORD = re.compile(r"(?<=[^\W\d_]{2})-[ \t]+(?=[^\W\d_])(?![a-z][.)]\s)")


def without_text_layer_marks(text: str) -> str:
    """The text without the marks the module docstring names."""
    text = _UNDERSCORES_BEFORE_MARK.sub("", text)
    text = _UNDERSCORES_ALONE.sub(" ", text)
    text = _UNDERSCORES_AT_EDGE.sub("", text)
    text = _CARETS.sub("", text)
    return _BROKEN_WORD.sub("-", text)
