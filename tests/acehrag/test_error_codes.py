"""Every error leaves through the one table: each route's error responses carry a ``code`` whose row in
``kernel.error_table`` gives exactly the status answered (JSON ``{"detail", "code"}``, the answer streams'
``error`` frame, the public chat's ``{"ok": false, "code"}``)."""
from __future__ import annotations

import importlib
import io
import json
import pkgutil
import re
import uuid
from dataclasses import replace

import pytest

from acehrag.errors import HTML_PREFIXES
from kernel.error_table import ERROR_TABLE, error_kind
from kernel.errors import DomainError
from tests.conftest import TEST_API_KEY

APPS = ("kernel", "acehrag", "retrieval", "answering", "conversations", "memory", "workspaces", "livedata", "workbench")
PUBLIC_PAIRS = {(kind.status, kind.public) for kind in ERROR_TABLE.values()}


def _all_domain_errors() -> list[type[DomainError]]:
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, app + "."):
            if ".migrations" not in info.name and not info.name.endswith("import_contracts"):
                importlib.import_module(info.name)
    found, todo = [], [DomainError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def test_every_named_error_has_a_row_in_the_table():
    missing = {f"{cls.__module__}.{cls.__name__}": cls.code for cls in _all_domain_errors() if cls.code not in ERROR_TABLE}
    assert not missing, missing


def test_a_code_names_one_status_and_the_families_agree():
    for cls in _all_domain_errors():
        own = ERROR_TABLE[cls.code]
        family = next((ERROR_TABLE[base.code] for base in cls.__mro__[1:] if getattr(base, "code", None) in ERROR_TABLE),
                      None)
        # A named error answers like its family (a NotFound is never a 403), whatever its own name.
        assert family is None or own.status == family.status or cls.__mro__[1] is DomainError, (cls, own, family)


def assert_json_error(response, where: str) -> str:
    body = response.json()
    assert set(body) >= {"detail", "code"}, (where, body)
    assert body["code"] in ERROR_TABLE, (where, body)
    assert ERROR_TABLE[body["code"]].status == response.status_code, (where, response.status_code, body)
    return body["code"]


def assert_public_error(response, where: str) -> str:
    body = response.json()
    assert body["ok"] is False and set(body) <= {"ok", "message", "code", "retryAfter"}, (where, body)
    assert (response.status_code, body["code"]) in PUBLIC_PAIRS, (where, response.status_code, body)
    return body["code"]


def _absent(name: str) -> str:
    """A UUID that names nothing, the same in every pytest-xdist worker (parameter ids must match across them)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"absent-{name}"))


def _filled(path: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: "1" if m.group(1) == "memory_id" else _absent(f"{path}-{m.group(1)}"), path)


@pytest.mark.django_db
def test_every_api_route_answers_its_errors_through_the_table(api_client):
    from django.test import Client

    from acehrag.api import api

    client = Client()   # no key (api_client is the default client with the key set)
    paths = api.get_openapi_schema()["paths"]
    seen: set[str] = set()
    for path, operations in paths.items():
        if path.startswith(("/api/public/", *HTML_PREFIXES)):
            continue  # the public chat's own shape (tested below) and the HTML pages
        for method in operations:
            url = _filled(path)
            send = getattr(client, method)
            # No key: invalid_api_key on every secured route.
            anonymous = send(url, data="{}", content_type="application/json") if method != "get" else send(url)
            if anonymous.status_code >= 400:
                seen.add(assert_json_error(anonymous, f"{method} {path} without key"))
            keyed = getattr(api_client, method)
            if method in ("post", "put"):
                body_errors = [keyed(url, data="{\"unknown_field\": 1}", content_type="application/json"),
                               keyed(url, data="{not json", content_type="application/json")]
            else:
                body_errors = [keyed(url)]
            for response in body_errors:
                if response.status_code >= 400:
                    seen.add(assert_json_error(response, f"{method} {path}"))
            wrong = api_client.generic("PATCH", url)
            seen.add(assert_json_error(wrong, f"PATCH {url}"))
    assert {"invalid_api_key", "validation_error", "method_not_allowed"} <= seen, seen


@pytest.mark.django_db
@pytest.mark.parametrize("method,path,body,headers,code", [
    ("post", "/search", {"query": "x" * 8001}, {}, "query_too_long"),
    ("post", "/search", {"query": "   "}, {}, "query_empty"),
    ("post", "/query", {"query": "x" * 8001}, {}, "query_too_long"),
    ("post", "/query", {"query": "Apa itu zakat?"}, {}, "no_content"),
    ("post", "/query/stream", {"query": "Apa itu zakat?"}, {}, "no_content"),
    ("post", "/query", {"query": "Lanjutkan.", "conversation_id": _absent("conversation")}, {}, "conversation_not_found"),
    ("post", "/query/v2", {"query": "x" * 8001}, {}, "query_too_long"),
    ("get", "/workspaces", None, {}, "subject_required"),
    ("get", f"/workspaces/{_absent('workspace')}", None, {"HTTP_X_USER_SUBJECT": "ana"}, "workspace_not_found"),
    ("delete", "/memories/7", None, {}, "memory_not_found"),
    ("get", f"/documents/{_absent('document')}", None, {}, "document_not_found"),
    ("get", f"/ingestions/{_absent('ingestion')}", None, {}, "ingestion_not_found"),
    ("post", "/playground", {"query": "Apa itu zakat?"}, {"HTTP_X_USER_SUBJECT": "ana"}, "admin_required"),
    ("get", "/no/such/route", None, {}, "not_found"),
])
def test_named_errors_answer_with_their_code_and_its_status(api_client, method, path, body, headers, code):
    send = getattr(api_client, method)
    response = (send(path, data=json.dumps(body), content_type="application/json", **headers) if body is not None
                else send(path, **headers))
    assert assert_json_error(response, path) == code


@pytest.mark.django_db
@pytest.mark.parametrize("name,content,code", [
    ("huge.txt", b"x" * 64, "upload_too_large"),
    ("tool.exe", b"MZ binary", "upload_type_unsupported"),
])
def test_upload_refusals_are_named(api_client, settings, name, content, code):
    settings.ACEH_RAG = replace(settings.ACEH_RAG, api=replace(settings.ACEH_RAG.api, max_upload_bytes=32))
    upload = io.BytesIO(content)
    upload.name = name
    response = api_client.post("/documents", {"file": upload, "collection_id": "c"})
    assert assert_json_error(response, name) == code


def test_the_stream_error_frame_reads_the_table():
    from answering.sse import error_frame
    from kernel.connections import DatabaseUnavailable
    from kernel.errors import InternalError

    for cls in _all_domain_errors():
        try:
            error = cls("message")
        except TypeError:
            continue  # errors that build their own message are covered by the route tests
        frame = error_frame(error).decode()
        data = json.loads(frame.split("data: ", 1)[1])
        assert data == {"code": error_kind(error).stream_code, "message": error.message}
        assert data["code"] in {"query_failed", "stream_failed", "service_unavailable"} or \
            data["code"] == f"http_{ERROR_TABLE[error.code].status}"
    assert json.loads(error_frame(DatabaseUnavailable()).decode().split("data: ", 1)[1])["code"] == "service_unavailable"
    assert json.loads(error_frame(InternalError("x")).decode().split("data: ", 1)[1])["code"] == "query_failed"


@pytest.mark.django_db(transaction=True)
def test_every_public_chat_error_is_a_row_of_the_table(client):
    chat, feedback = "/api/public/rag/chat", "/api/public/rag/feedback"
    cases = [
        client.get(chat),
        client.post(chat, data=b"message=hai", content_type="application/x-www-form-urlencoded"),
        client.post(chat, data=b"{not json", content_type="application/json"),
        client.post(chat, data=json.dumps({"message": "   "}), content_type="application/json"),
        client.post(chat, data=json.dumps({"message": "x" * 70_000}), content_type="application/json"),
        client.post(chat, data=json.dumps({"message": "hai"}), content_type="application/json",
                    HTTP_ORIGIN="https://evil.example"),
        client.post(chat, data=json.dumps({"message": "Apa itu zakat?"}), content_type="application/json"),
        client.post(feedback, data=json.dumps({"visitorId": "v", "conversationId": str(uuid.uuid4()), "turn": 0,
                                               "rating": "up"}), content_type="application/json"),
        client.post(feedback, data=b"{}", content_type="text/plain"),
        client.get(f"/api/public/rag/sources/{uuid.uuid4()}"),
    ]
    codes = [assert_public_error(response, str(index)) for index, response in enumerate(cases)]
    assert codes == ["METHOD_NOT_ALLOWED", "UNSUPPORTED_MEDIA_TYPE", "BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST",
                     "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", "UNSUPPORTED_MEDIA_TYPE", "NOT_FOUND"]
