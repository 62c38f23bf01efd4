"""The artifact file formats, written with the standard library and openpyxl: CSV, XLSX and a DOCX note.

The DOCX is the smallest WordprocessingML package Word and LibreOffice open: one document part of plain
paragraphs (the first as a title), no styles, no fields, no external relationships.
"""
from __future__ import annotations

import csv
import io
import re
import zipfile
from xml.sax.saxutils import escape

CSV = "text/csv; charset=utf-8"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
EXTENSIONS = {CSV: "csv", XLSX: "xlsx", DOCX: "docx"}
FORMATS = {"csv": CSV, "xlsx": XLSX, "docx": DOCX}
# Characters XML 1.0 cannot carry; a control character in a cell or paragraph is dropped, never escaped.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# A spreadsheet reads a cell starting with these as a formula (CSV injection): it is kept as text.
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: str) -> str:
    text = _NOT_XML.sub("", str(value))
    return "'" + text if text.startswith(_FORMULA) else text


def csv_bytes(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(value) for value in row])
    return out.getvalue().encode("utf-8-sig")      # the BOM makes spreadsheet programs read UTF-8


def xlsx_bytes(rows: list[list[str]], title: str) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = re.sub(r"[\\/*?:\[\]]", " ", title)[:31] or "Sheet1"
    for row in rows:
        sheet.append([_cell(value) for value in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


_CONTENT_TYPES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                  '<Default Extension="xml" ContentType="application/xml"/>'
                  '<Override PartName="/word/document.xml" '
                  'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
                  '</Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
         '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
         'officeDocument" Target="word/document.xml"/></Relationships>')
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _paragraph(text: str, bold: bool = False) -> str:
    properties = "<w:rPr><w:b/></w:rPr>" if bold else ""
    return (f'<w:p><w:r>{properties}<w:t xml:space="preserve">{escape(_NOT_XML.sub("", text))}</w:t></w:r></w:p>')


def docx_bytes(title: str, paragraphs: list[str]) -> bytes:
    body = _paragraph(title, bold=True) + "".join(_paragraph(p) for p in paragraphs)
    document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{_W}">'
                f"<w:body>{body}</w:body></w:document>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", _CONTENT_TYPES)
        package.writestr("_rels/.rels", _RELS)
        package.writestr("word/document.xml", document)
    return out.getvalue()
