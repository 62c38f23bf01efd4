"""The inspector's reading view shows an answer's Markdown bold as bold and escapes everything else."""
from __future__ import annotations

import uuid

import pytest

from workbench.inspector import v1_answer_html, v2_answer_html


@pytest.mark.django_db
def test_a_v1_answer_shows_bold_as_bold_and_its_markers_as_links():
    chunk_id = str(uuid.uuid4())
    text = f"Badan Publik menjawab dalam **10 (sepuluh) hari kerja** [chunk:{chunk_id}] <script>x</script> 2 ** 3."
    html = v1_answer_html(text, [{"chunk_id": chunk_id}])
    assert "<strong>10 (sepuluh) hari kerja</strong>" in html
    assert "**" not in html.replace("2 ** 3", "")  # a lone pair of asterisks is arithmetic, left as written
    assert "&lt;script&gt;x&lt;/script&gt;" in html and "<script>" not in html
    assert "<sup>[" in html and "[chunk:" not in html


@pytest.mark.django_db
def test_a_v2_answer_shows_bold_inside_and_outside_claims():
    text = "**Jawaban:** batasnya **Rp 3.000.000** per bulan & <b>tidak</b> lebih."
    start = text.index("batasnya")
    end = text.index(" per bulan") + len(" per bulan")
    html = v2_answer_html(text, [{"start": start, "end": end, "verdict": "supported", "citations": []}])
    assert html.startswith("<strong>Jawaban:</strong> ")
    assert '<mark class="claim verdict-supported"' in html and "<strong>Rp 3.000.000</strong> per bulan</mark>" in html
    assert "&amp; &lt;b&gt;tidak&lt;/b&gt;" in html and "**" not in html
