"""Loopback HTTP servers speaking the CKAN Action API and the BPS WebAPI paths.

The payloads follow the shapes the real APIs document: CKAN wraps every
action's answer as ``{"help", "success", "result"}`` (``package_search`` →
``count``/``results`` with ``organization`` and ``resources``;
``datastore_search`` → ``fields``/``records``/``total``/``_links``); BPS
answers ``{"status": "OK", "data-availability": "available", "data":
[pagination, items]}`` for lists and ``var``/``vervar``/``turvar``/``tahun``/
``turtahun``/``datacontent`` for ``model/data``.
"""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class FakePortal:
    """Serve ``handler(path, query) -> (status, payload)`` for GET on 127.0.0.1; records every request."""

    def __init__(self, handler, delay: float = 0.0):
        outer = self
        self.requests: list[tuple[str, dict]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                outer.requests.append((parts.path, query))
                if delay:
                    time.sleep(delay)
                status, payload = handler(parts.path, query)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its timeout)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakePortal":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


POVERTY_PACKAGE = {
    "id": "7c1f2a0e-3b1d-4c55-9d2e-1a2b3c4d5e6f",
    "name": "persentase-penduduk-miskin-menurut-kabupaten-kota",
    "title": "Persentase Penduduk Miskin Menurut Kabupaten/Kota",
    "notes": "Persentase penduduk miskin (P0) kabupaten/kota di Aceh, hasil Susenas Maret.",
    "organization": {"id": "org-1", "name": "bappeda-aceh", "title": "Bappeda Aceh"},
    "tags": [{"name": "kemiskinan"}, {"name": "penduduk miskin"}],
    "metadata_modified": "2025-02-10T03:04:05.000000",
    "resources": [
        {"id": "a1b2c3d4-0000-4000-8000-000000000001", "name": "Persentase Penduduk Miskin 2023-2024",
         "format": "CSV", "url": "https://data.acehprov.go.id/dataset/x/resource/a1/download/p0.csv",
         "datastore_active": True, "package_id": "7c1f2a0e-3b1d-4c55-9d2e-1a2b3c4d5e6f"},
    ],
}
POVERTY_RECORDS = [
    {"_id": 1, "kabupaten_kota": "Aceh", "tahun": 2024, "persentase_penduduk_miskin": 12.64},
    {"_id": 2, "kabupaten_kota": "Pidie", "tahun": 2024, "persentase_penduduk_miskin": 18.51},
    {"_id": 3, "kabupaten_kota": "Banda Aceh", "tahun": 2024, "persentase_penduduk_miskin": 6.42},
    {"_id": 4, "kabupaten_kota": "Pidie", "tahun": 2023, "persentase_penduduk_miskin": 19.32},
    {"_id": 5, "kabupaten_kota": "Aceh", "tahun": 2023, "persentase_penduduk_miskin": 14.45},
]


def ckan_handler(path: str, query: dict):
    help_url = "https://data.acehprov.go.id/api/3/action/help_show?name="
    if path == "/api/3/action/package_search":
        words = set(query.get("q", "").lower().split())
        hit = words & {"miskin", "kemiskinan", "penduduk"}
        results = [POVERTY_PACKAGE] if hit else []
        return 200, {"help": help_url + "package_search", "success": True, "result": {
            "count": len(results), "facets": {}, "results": results, "sort": "score desc, metadata_modified desc",
            "search_facets": {}}}
    if path == "/api/3/action/package_show":
        return 200, {"help": help_url + "package_show", "success": True, "result": POVERTY_PACKAGE}
    if path == "/api/3/action/datastore_search":
        if query.get("resource_id") != POVERTY_PACKAGE["resources"][0]["id"]:
            return 404, {"help": help_url + "datastore_search", "success": False,
                         "error": {"__type": "Not Found Error", "message": "Not found: Resource was not found."}}
        records = POVERTY_RECORDS
        if "filters" in query:
            wanted = json.loads(query["filters"])
            records = [r for r in records if all(str(r.get(k)) == str(v) for k, v in wanted.items())]
        limit = int(query.get("limit", 100))
        return 200, {"help": help_url + "datastore_search", "success": True, "result": {
            "include_total": True, "limit": limit, "records_format": "objects",
            "resource_id": query["resource_id"], "total_estimation_threshold": None,
            "fields": [{"id": "_id", "type": "int"}, {"id": "kabupaten_kota", "type": "text"},
                       {"id": "tahun", "type": "int4"}, {"id": "persentase_penduduk_miskin", "type": "numeric"}],
            "records": records[:limit],
            "_links": {"start": f"/api/3/action/datastore_search?resource_id={query['resource_id']}",
                       "next": f"/api/3/action/datastore_search?resource_id={query['resource_id']}&offset={limit}"},
            "total": len(records)}}
    return 404, {"success": False, "error": {"__type": "Not Found Error", "message": "Not found"}}


BPS_KEY = "test-bps-app-key"
UNEMPLOYMENT_VAR = {"var_id": 529, "title": "Tingkat Pengangguran Terbuka (TPT) Menurut Kabupaten/Kota", "sub_id": 6,
                    "sub_name": "Tenaga Kerja", "subcsa_id": 2, "subcsa_name": "Tenaga Kerja", "def": "",
                    "notes": "", "vertical": 4, "unit": "Persen", "graph_id": 1, "graph_name": "Tidak Ada"}


def bps_handler(path: str, query: dict):
    if not path.endswith(f"/key/{BPS_KEY}/"):
        return 200, {"status": "Error", "message": "Invalid or Inactive Key"}
    if "/list/model/var/" in path:
        items = [UNEMPLOYMENT_VAR] if "pengangguran" in path.lower() or "/subject/6/" in path else []
        availability = "available" if items else "list-not-available"
        return 200, {"status": "OK", "data-availability": availability,
                     "data": [{"page": 1, "pages": 1, "per_page": 10, "count": len(items), "total": len(items)}, items]}
    if "/list/model/subject/" in path:
        return 200, {"status": "OK", "data-availability": "available", "data": [
            {"page": 1, "pages": 1, "per_page": 10, "count": 1, "total": 1},
            [{"sub_id": 6, "title": "Tenaga Kerja", "subcat_id": 1, "subcat": "Sosial dan Kependudukan", "ntabel": 12}]]}
    if "/list/model/data/" in path and "/var/529/" in path:
        return 200, {
            "status": "OK", "data-availability": "available", "last_update": "2025-01-06 10:00:00",
            "subject": [{"val": 6, "label": "Tenaga Kerja"}],
            "var": [{"val": 529, "label": "Tingkat Pengangguran Terbuka (TPT)", "unit": "Persen", "subj": "Tenaga Kerja",
                     "def": "", "decimal": "2", "note": ""}],
            "turvar": [{"val": 0, "label": "Tidak Ada"}],
            "labelvervar": "Kabupaten/Kota",
            "vervar": [{"val": 1100, "label": "Aceh"}, {"val": 1106, "label": "Aceh Besar"}],
            "tahun": [{"val": 123, "label": "2023"}, {"val": 124, "label": "2024"}],
            "turtahun": [{"val": 0, "label": "Tahun"}],
            "datacontent": {"110052901230": 6.03, "110052901240": 5.75, "110652901230": 6.61, "110652901240": 6.2},
        }
    return 200, {"status": "OK", "data-availability": "list-not-available", "data": [{}, []]}
