"""The OCR tests need Tesseract with its Indonesian model (``make ocr-deps`` installs it, as ``make test`` does);
where it is absent they skip saying so, and the refusal path without it is tested on its own."""
import pytest

from retrieval.parsing.ocr import ocr_unavailable

needs_ocr = pytest.mark.skipif(
    ocr_unavailable() is not None,
    reason=f"{ocr_unavailable()}: these tests read scans with Tesseract; the no-OCR refusal is tested separately")
