"""API keys on every route, and the principal rules in both enforcement modes."""
from __future__ import annotations

import uuid

import pytest
from django.test import RequestFactory, override_settings
from django.conf import settings
from dataclasses import replace

from acehrag.api import api
from acehrag.auth import (
    ANONYMOUS,
    PRINCIPAL_INVALID,
    PRINCIPAL_REQUIRED,
    Principal,
    PrincipalError,
    principal_from_headers,
)
from acehrag.models import ApiKey
from acehrag.services import api_key_create, api_key_revoke

pytestmark = pytest.mark.django_db

INVALID_KEY_BODY = {"detail": "Invalid or missing API key", "code": "invalid_api_key"}


def api_routes() -> list[tuple[str, str]]:
    """Every (method, path) of the API, path parameters filled with a UUID that names nothing (the same one in
    every pytest-xdist worker: parameter ids must match across workers)."""
    schema = api.get_openapi_schema()
    routes = []
    for path, operations in schema["paths"].items():
        concrete = path
        while "{" in concrete:
            start, end = concrete.index("{"), concrete.index("}")
            concrete = concrete[:start] + str(uuid.uuid5(uuid.NAMESPACE_URL, f"{path}#{start}")) + concrete[end + 1 :]
        for method, operation in operations.items():
            if operation.get("security"):  # the public chat, health and widget routes need no key
                routes.append((method.upper(), concrete))
    return routes


ROUTES = api_routes()


def call(client, method: str, path: str, **headers):
    return client.generic(method, path, data=b"{}", content_type="application/json", **headers)


def test_the_api_has_routes_to_protect():
    paths = {path for _, path in ROUTES}
    assert "/search" in paths and "/documents" in paths


@pytest.mark.parametrize("method,path", ROUTES)
def test_missing_key_is_401_on_every_route(client, method, path):
    response = call(client, method, path)
    assert response.status_code == 401
    assert response.json() == INVALID_KEY_BODY


@pytest.mark.parametrize("method,path", ROUTES)
def test_wrong_key_is_401_on_every_route(client, method, path):
    response = call(client, method, path, HTTP_X_API_KEY="not-a-key")
    assert response.status_code == 401
    assert response.json() == INVALID_KEY_BODY


@pytest.mark.parametrize("method,path", ROUTES)
def test_revoked_db_key_is_401_on_every_route(client, method, path):
    key, raw = api_key_create(name=f"revoked-{uuid.uuid4().hex[:6]}")
    api_key_revoke(key=key)
    response = call(client, method, path, HTTP_X_API_KEY=raw)
    assert response.status_code == 401
    assert response.json() == INVALID_KEY_BODY


@pytest.mark.parametrize("method,path", ROUTES)
def test_valid_env_key_passes_authentication_on_every_route(client, method, path):
    response = call(client, method, path, HTTP_X_API_KEY="test-env-key")
    assert response.status_code != 401, response.content
    assert response["Content-Type"].startswith("application/json") or response.status_code == 204


@pytest.mark.parametrize("method,path", ROUTES)
def test_valid_db_key_passes_authentication_on_every_route(client, method, path):
    _, raw = api_key_create(name=f"partner-{uuid.uuid4().hex[:6]}")
    response = call(client, method, path, HTTP_X_API_KEY=raw)
    assert response.status_code != 401, response.content


def test_db_key_is_stored_hashed_and_records_last_use(client):
    key, raw = api_key_create(name="bappeda")
    assert raw not in key.digest and key.prefix == raw[:8]
    assert key.last_used_at is None
    client.post("/search", data={"query": "anggaran"}, content_type="application/json", HTTP_X_API_KEY=raw)
    key.refresh_from_db()
    assert key.last_used_at is not None


def test_key_header_name_is_configurable(client):
    config = replace(settings.ACEH_RAG, api=replace(settings.ACEH_RAG.api, key_header="X-Partner-Key"))
    with override_settings(ACEH_RAG=config):
        ok = client.post("/search", data={"query": "x"}, content_type="application/json", HTTP_X_PARTNER_KEY="test-env-key")
        default = client.post("/search", data={"query": "x"}, content_type="application/json", HTTP_X_API_KEY="test-env-key")
    assert ok.status_code == 200
    assert default.status_code == 401


# --- principal rules -------------------------------------------------------

factory = RequestFactory()


def resolve(require: bool, trust: bool = True, **headers) -> Principal:
    meta = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items()}
    return principal_from_headers(factory.get("/", **meta), require=require, trust=trust)


@pytest.mark.parametrize("require", [False, True])
def test_full_identity_is_resolved(require):
    principal = resolve(require, x_user_subject=" emp-1 ", x_user_role="admin", x_user_unit="Bappeda", x_user_level="4")
    assert principal == Principal(subject="emp-1", role="admin", unit="Bappeda", level=4, verified=True)
    assert principal.is_admin


@pytest.mark.parametrize("require", [False, True])
def test_role_defaults_to_user_when_subject_given(require):
    principal = resolve(require, x_user_subject="emp-2")
    assert principal.role == "user" and principal.unit is None and principal.level is None


def test_untrusted_headers_give_an_unverified_owner():
    principal = resolve(False, trust=False, x_user_subject="emp-3", x_user_role="admin")
    assert principal.subject == "emp-3" and not principal.verified and not principal.is_admin


MALFORMED = [
    {"x_user_subject": "   "},
    {"x_user_subject": "x" * 257},
    {"x_user_subject": "emp\x01"},
    {"x_user_subject": "emp", "x_user_level": "three"},
    {"x_user_subject": "emp", "x_user_level": "-1"},
    {"x_user_subject": "emp", "x_user_level": "2.5"},
    {"x_user_subject": "emp", "x_user_role": "ad min!"},
    {"x_user_subject": "emp", "x_user_unit": "u" * 201},
]


@pytest.mark.parametrize("headers", MALFORMED)
def test_malformed_identity_is_invalid_when_enforced(headers):
    with pytest.raises(PrincipalError) as info:
        resolve(True, **headers)
    assert info.value.detail == PRINCIPAL_INVALID


@pytest.mark.parametrize("headers", MALFORMED)
def test_malformed_identity_is_discarded_when_not_enforced(headers):
    assert resolve(False, **headers) == ANONYMOUS


@pytest.mark.parametrize("headers", [{}, {"x_user_role": "admin", "x_user_unit": "Bappeda", "x_user_level": "9"}])
def test_missing_subject(headers):
    with pytest.raises(PrincipalError) as info:
        resolve(True, **headers)
    assert info.value.detail == PRINCIPAL_REQUIRED
    # Enforcement off: claims without a subject are discarded.
    assert resolve(False, **headers) == ANONYMOUS


def test_owner_fallbacks():
    assert Principal(subject="emp").owner("someone-else") == "emp"
    assert ANONYMOUS.owner("dev-user") == "dev-user"
    assert ANONYMOUS.owner(None) == "anonymous"
    assert ANONYMOUS.owner("00000000-0000-0000-0000-000000000000") == "anonymous"


def enforced():
    return override_settings(ACEH_RAG=replace(settings.ACEH_RAG, auth=replace(settings.ACEH_RAG.auth, require_principal=True)))


def test_enforced_principal_over_http(api_client):
    body = {"query": "anggaran"}
    with enforced():
        missing = api_client.post("/search", data=body, content_type="application/json")
        malformed = api_client.post("/search", data=body, content_type="application/json", HTTP_X_USER_SUBJECT="emp", HTTP_X_USER_LEVEL="x")
        good = api_client.post("/search", data=body, content_type="application/json", HTTP_X_USER_SUBJECT="emp", HTTP_X_USER_LEVEL="3")
    assert (missing.status_code, missing.json()) == (401, {"detail": PRINCIPAL_REQUIRED, "code": "principal_invalid"})
    assert (malformed.status_code, malformed.json()) == (401, {"detail": PRINCIPAL_INVALID, "code": "principal_invalid"})
    assert good.status_code == 200


def test_api_key_is_checked_before_the_principal(client):
    with enforced():
        response = client.post("/search", data={"query": "x"}, content_type="application/json")
    assert response.json() == INVALID_KEY_BODY


def test_admin_creates_keys_shown_once(admin_client):
    response = admin_client.post("/admin/acehrag/apikey/add/", {"name": "diskominsa"}, follow=True)
    assert response.status_code == 200
    key = ApiKey.objects.get(name="diskominsa")
    shown = [str(m) for m in response.context["messages"]]
    assert any(key.prefix in message for message in shown)
