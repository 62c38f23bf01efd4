"""Verified identity from a partner-signed JWT in ``Authorization: Bearer``."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import replace

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.conf import settings
from django.test import RequestFactory, override_settings

from acehrag.auth import PrincipalError, principal_from_request, verified_identity_enabled
from kernel.principal import Principal
from kernel.config import ConfigError, load_settings
from acehrag.models import PartnerJwtKey
from kernel.partner_jwt import JwtKey, JwtPolicy
from tests.acehrag.test_auth import ROUTES, call
from tests.factories import make_document

pytestmark = pytest.mark.django_db

SECRET = "bappeda-shared-secret-0123456789abcdef"
OTHER_SECRET = "dinkes-shared-secret-0123456789abcdefgh"
factory = RequestFactory()


@pytest.fixture(scope="module")
def rsa_private():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def public_pem(private_key) -> str:
    return private_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()


def make_token(key, algorithm: str = "HS256", *, kid: str | None = None, **claims) -> str:
    """A signed token; a claim given as None is left out."""
    payload = {"sub": "pegawai-7", "role": "user", "unit": "Bappeda", "level": 3, "exp": int(time.time()) + 300}
    payload.update(claims)
    payload = {name: value for name, value in payload.items() if value is not None}
    return jwt.encode(payload, key, algorithm=algorithm, headers={"kid": kid} if kid else None)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def forged_token(header: dict, payload: dict, secret: bytes | None) -> str:
    """A token built by hand, for what PyJWT refuses to sign (``none``, a PEM as HMAC secret)."""
    signing_input = f"{b64(json.dumps(header).encode())}.{b64(json.dumps(payload).encode())}"
    signature = b"" if secret is None else hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64(signature)}"


def auth_config(*, keys=(), issuers=(), audience=(), trust=True, require=False):
    base = settings.ACEH_RAG
    auth = replace(
        base.auth, jwt_keys=tuple(keys), trust_identity_headers=trust, require_principal=require,
        jwt=JwtPolicy(issuers=tuple(issuers), audience=tuple(audience), leeway_seconds=30),
    )
    return override_settings(ACEH_RAG=replace(base, auth=auth))


HS_KEY = JwtKey(name="bappeda", algorithm="HS256", key=SECRET)


def resolve(token: str | None = None, *, authorization: str | None = None, **headers) -> Principal:
    meta = {f"HTTP_{name.upper()}": value for name, value in headers.items()}
    if token is not None:
        meta["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    if authorization is not None:
        meta["HTTP_AUTHORIZATION"] = authorization
    return principal_from_request(factory.get("/", **meta))


def rejection(token: str | None = None, **kwargs) -> str:
    with pytest.raises(PrincipalError) as info:
        resolve(token, **kwargs)
    return info.value.detail


VERIFIED_EMPLOYEE = Principal(subject="pegawai-7", role="user", unit="Bappeda", level=3, verified=True)


# --- keys from settings and from the admin ----------------------------------


def test_hs256_key_from_settings_gives_a_verified_principal():
    with auth_config(keys=[HS_KEY], trust=False):
        assert resolve(make_token(SECRET)) == VERIFIED_EMPLOYEE


def test_rs256_key_from_settings(rsa_private):
    key = JwtKey(name="diskominsa", algorithm="RS256", key=public_pem(rsa_private))
    with auth_config(keys=[key], trust=False):
        assert resolve(make_token(rsa_private, "RS256")) == VERIFIED_EMPLOYEE


@pytest.mark.parametrize("algorithm", ["HS256", "RS256"])
def test_keys_from_the_admin_model(rsa_private, algorithm):
    stored = SECRET if algorithm == "HS256" else public_pem(rsa_private)
    signing = SECRET if algorithm == "HS256" else rsa_private
    PartnerJwtKey.objects.create(name=f"partner-{algorithm}", algorithm=algorithm, key=stored, issuer="https://sso.bappeda")
    with auth_config(trust=False):
        assert resolve(make_token(signing, algorithm, iss="https://sso.bappeda")) == VERIFIED_EMPLOYEE


def test_inactive_admin_key_is_not_used():
    PartnerJwtKey.objects.create(name="retired", algorithm="HS256", key=SECRET, active=False)
    with auth_config():
        assert rejection(make_token(SECRET)) == "Invalid bearer token: no partner JWT key is configured"


def test_admin_role_and_integer_level_claims():
    with auth_config(keys=[HS_KEY], trust=False):
        principal = resolve(make_token(SECRET, role="admin", unit=None, level=None))
    assert principal == Principal(subject="pegawai-7", role="admin", verified=True)
    assert principal.is_admin


# --- key selection -------------------------------------------------------------


def test_kid_selects_the_key():
    keys = [JwtKey(name="a", algorithm="HS256", key=SECRET, kid="k1"),
            JwtKey(name="b", algorithm="HS256", key=OTHER_SECRET, kid="k2")]
    with auth_config(keys=keys):
        assert resolve(make_token(OTHER_SECRET, kid="k2")).verified
        assert rejection(make_token(SECRET, kid="k2")) == "Invalid bearer token: signature verification failed"
        assert rejection(make_token(SECRET, kid="k9")) == "Invalid bearer token: unknown signing key"
        # A token without a kid may still use keys that name no issuer.
        assert resolve(make_token(SECRET)).verified


def test_without_kid_the_issuer_selects_the_partner_keys():
    keys = [JwtKey(name="a", algorithm="HS256", key=SECRET, kid="k1", issuer="https://a"),
            JwtKey(name="b", algorithm="HS256", key=OTHER_SECRET, kid="k2", issuer="https://b")]
    with auth_config(keys=keys):
        assert resolve(make_token(OTHER_SECRET, iss="https://b")).verified
        assert rejection(make_token(SECRET, iss="https://b")) == "Invalid bearer token: signature verification failed"
        assert rejection(make_token(SECRET, iss="https://c")) == "Invalid bearer token: unknown signing key"
        # A kid binds the key, and the key its issuer.
        assert rejection(make_token(SECRET, kid="k1", iss="https://b")) == "Invalid bearer token: wrong issuer"


def test_rotation_tries_every_key_of_the_partner():
    keys = [JwtKey(name="old", algorithm="HS256", key=SECRET, issuer="https://a"),
            JwtKey(name="new", algorithm="HS256", key=OTHER_SECRET, issuer="https://a")]
    with auth_config(keys=keys):
        assert resolve(make_token(SECRET, iss="https://a")).verified
        assert resolve(make_token(OTHER_SECRET, iss="https://a")).verified


# --- rejections ------------------------------------------------------------------


def test_expired_token():
    with auth_config(keys=[HS_KEY]):
        assert rejection(make_token(SECRET, exp=int(time.time()) - 120)) == "Invalid bearer token: token has expired"
        # Within the leeway a just-expired token still passes.
        assert resolve(make_token(SECRET, exp=int(time.time()) - 5)).verified


def test_exp_is_required_and_nbf_is_checked():
    with auth_config(keys=[HS_KEY]):
        assert rejection(make_token(SECRET, exp=None)) == "Invalid bearer token: token lacks the exp claim"
        assert rejection(make_token(SECRET, sub=None)) == "Invalid bearer token: token lacks the sub claim"
        assert rejection(make_token(SECRET, nbf=int(time.time()) + 600)) == "Invalid bearer token: token is not yet valid"


def test_audience_when_configured():
    with auth_config(keys=[HS_KEY], audience=["aceh-rag"]):
        assert resolve(make_token(SECRET, aud="aceh-rag")).verified
        assert rejection(make_token(SECRET, aud="other-service")) == "Invalid bearer token: wrong audience"
        assert rejection(make_token(SECRET)) == "Invalid bearer token: token lacks the aud claim"
    keyed = replace(HS_KEY, audience="bappeda-rag")
    with auth_config(keys=[keyed], audience=["aceh-rag"]):
        assert resolve(make_token(SECRET, aud="bappeda-rag")).verified
        assert rejection(make_token(SECRET, aud="aceh-rag")) == "Invalid bearer token: wrong audience"
    with auth_config(keys=[HS_KEY]):
        assert resolve(make_token(SECRET, aud="anything")).verified


def test_issuer_when_configured():
    with auth_config(keys=[HS_KEY], issuers=["https://sso.bappeda", "https://sso.dinkes"]):
        assert resolve(make_token(SECRET, iss="https://sso.dinkes")).verified
        assert rejection(make_token(SECRET, iss="https://evil")) == "Invalid bearer token: wrong issuer"
        assert rejection(make_token(SECRET)) == "Invalid bearer token: token lacks the iss claim"


def test_bad_signature():
    with auth_config(keys=[HS_KEY]):
        assert rejection(make_token(OTHER_SECRET)) == "Invalid bearer token: signature verification failed"
        header, _, signature = make_token(SECRET).split(".")
        tampered = make_token(SECRET, role="admin").split(".")[1]
        assert rejection(f"{header}.{tampered}.{signature}") == "Invalid bearer token: signature verification failed"


def test_alg_none_is_refused():
    payload = {"sub": "pegawai-7", "role": "admin", "exp": int(time.time()) + 300}
    with auth_config(keys=[HS_KEY]):
        for alg in ("none", "None", "HS512"):
            token = forged_token({"alg": alg, "typ": "JWT"}, payload, None)
            assert rejection(token) == "Invalid bearer token: unsupported algorithm (HS256 or RS256 only)"


def test_hs_rs_confusion_is_refused(rsa_private):
    """An HMAC token keyed with the partner's public PEM must not pass as RS256."""
    pem = public_pem(rsa_private)
    payload = {"sub": "pegawai-7", "role": "admin", "exp": int(time.time()) + 300}
    with auth_config(keys=[JwtKey(name="rsa", algorithm="RS256", key=pem, kid="r1")]):
        with_kid = forged_token({"alg": "HS256", "typ": "JWT", "kid": "r1"}, payload, pem.encode())
        without_kid = forged_token({"alg": "HS256", "typ": "JWT"}, payload, pem.encode())
        assert rejection(with_kid) == "Invalid bearer token: algorithm does not match the signing key"
        assert rejection(without_kid) == "Invalid bearer token: algorithm does not match the signing key"


@pytest.mark.parametrize("authorization,reason", [
    ("Bearer not-a-jwt", "malformed token"),
    ("Bearer a.b.c", "malformed token"),
    ("Bearer " + "x" * 9000, "malformed token"),
    ("Bearer", 'the Authorization header must be "Bearer <token>"'),
    ("Basic dXNlcjpwYXNz", 'the Authorization header must be "Bearer <token>"'),
])
def test_malformed_authorization_header(authorization, reason):
    with auth_config(keys=[HS_KEY]):
        assert rejection(authorization=authorization) == f"Invalid bearer token: {reason}"


@pytest.mark.parametrize("claims", [{"level": "tiga"}, {"level": -1}, {"level": 5000}, {"level": True},
                                    {"role": "ad min"}, {"unit": ["a", "b"]}, {"sub": "  "}])
def test_malformed_identity_claims(claims):
    with auth_config(keys=[HS_KEY]):
        assert rejection(make_token(SECRET, **claims)) == "Invalid bearer token: invalid identity claims"


def test_a_token_without_any_configured_key_is_rejected():
    with auth_config():
        assert rejection(make_token(SECRET)) == "Invalid bearer token: no partner JWT key is configured"


def test_rejections_log_neither_token_nor_secret(caplog):
    token = make_token(OTHER_SECRET)
    with auth_config(keys=[HS_KEY]), caplog.at_level("INFO", logger="acehrag.auth"):
        rejection(token)
    assert "signature verification failed" in caplog.text
    assert token not in caplog.text and SECRET not in caplog.text


# --- JWT and headers ---------------------------------------------------------------


def test_jwt_wins_over_identity_headers():
    with auth_config(keys=[HS_KEY], trust=False):
        principal = resolve(make_token(SECRET), x_user_subject="someone-else", x_user_unit="Dinkes", x_user_level="9")
    assert principal == VERIFIED_EMPLOYEE


def test_without_authorization_the_headers_still_decide():
    with auth_config(keys=[HS_KEY], trust=False):
        assert resolve(x_user_subject="emp", x_user_unit="Bappeda") == Principal(subject="emp", unit="Bappeda")
    with auth_config(keys=[HS_KEY], require=True):
        assert rejection() == "Authenticated principal required"


def test_verified_identity_enabled():
    with auth_config(trust=True):
        assert verified_identity_enabled()
    with auth_config(trust=False):
        assert not verified_identity_enabled()
        PartnerJwtKey.objects.create(name="off", algorithm="HS256", key=SECRET, active=False)
        assert not verified_identity_enabled()
        PartnerJwtKey.objects.create(name="on", algorithm="HS256", key=OTHER_SECRET)
        assert verified_identity_enabled()
    with auth_config(keys=[HS_KEY], trust=False):
        assert verified_identity_enabled()


# --- over HTTP ---------------------------------------------------------------------------


@pytest.mark.parametrize("method,path", ROUTES)
def test_bad_token_is_401_on_every_route(client, method, path):
    with auth_config(keys=[HS_KEY]):
        response = call(client, method, path, HTTP_X_API_KEY="test-env-key",
                        HTTP_AUTHORIZATION=f"Bearer {make_token(OTHER_SECRET)}")
    assert response.status_code == 401
    assert response.json() == {"detail": "Invalid bearer token: signature verification failed",
                               "code": "principal_invalid"}


def test_api_key_is_still_required_with_a_valid_token(client):
    with auth_config(keys=[HS_KEY]):
        response = client.post("/search", data={"query": "x"}, content_type="application/json",
                               HTTP_AUTHORIZATION=f"Bearer {make_token(SECRET)}")
    assert (response.status_code, response.json()) == (401, {"detail": "Invalid or missing API key", "code": "invalid_api_key"})


def test_verified_jwt_principal_sees_restricted_documents_through_search(api_client):
    public = make_document(title="Zakat Umum", chunks=["Ketentuan zakat profesi berlaku umum."])
    secret = make_document(title="Zakat Rahasia", chunks=["Ketentuan zakat rahasia internal."], confidential=True)
    unit = make_document(title="Zakat Bappeda", chunks=["Ketentuan zakat khusus Bappeda."], org_unit="Bappeda", min_level=3)
    identity = {"HTTP_X_USER_SUBJECT": "pegawai-7", "HTTP_X_USER_UNIT": "Bappeda", "HTTP_X_USER_LEVEL": "3"}

    def visible(**headers) -> set[str]:
        response = api_client.post("/search", data={"query": "ketentuan zakat", "top_k": 50},
                                   content_type="application/json", **headers)
        assert response.status_code == 200, response.content
        return {result["document_id"] for result in response.json()["results"]}

    with auth_config(keys=[HS_KEY], trust=False):
        with_jwt = visible(HTTP_AUTHORIZATION=f"Bearer {make_token(SECRET)}", **identity)
        without_jwt = visible(**identity)
    assert with_jwt == {str(public.id), str(secret.id), str(unit.id)}
    assert without_jwt == {str(public.id)}


# --- settings -------------------------------------------------------------------------------


def test_keys_and_policy_from_the_environment(monkeypatch, rsa_private):
    keys = [{"name": "bappeda", "algorithm": "hs256", "key": SECRET, "kid": "k1", "issuer": "https://a"},
            {"algorithm": "RS256", "key": public_pem(rsa_private), "audience": "bappeda-rag"}]
    monkeypatch.setenv("ACEH_RAG_AUTH__JWT_KEYS", json.dumps(keys))
    monkeypatch.setenv("ACEH_RAG_AUTH__JWT_ISSUERS", "https://a, https://b")
    monkeypatch.setenv("ACEH_RAG_AUTH__JWT_AUDIENCE", "aceh-rag")
    monkeypatch.setenv("ACEH_RAG_AUTH__JWT_LEEWAY_SECONDS", "10")
    auth = load_settings().auth
    assert auth.jwt == JwtPolicy(issuers=("https://a", "https://b"), audience=("aceh-rag",), leeway_seconds=10)
    assert auth.jwt_keys[0] == JwtKey(name="bappeda", algorithm="HS256", key=SECRET, kid="k1", issuer="https://a")
    assert (auth.jwt_keys[1].name, auth.jwt_keys[1].audience) == ("env-jwt-key-2", "bappeda-rag")
    assert SECRET not in repr(auth)


def test_defaults_have_no_keys(monkeypatch):
    for name in ("JWT_KEYS", "JWT_ISSUERS", "JWT_AUDIENCE", "JWT_LEEWAY_SECONDS"):
        monkeypatch.delenv(f"ACEH_RAG_AUTH__{name}", raising=False)
    auth = load_settings().auth
    assert auth.jwt_keys == () and auth.jwt == JwtPolicy(issuers=(), audience=(), leeway_seconds=30)


@pytest.mark.parametrize("value,message", [
    ("not json", "must be a JSON array"),
    ('{"algorithm": "HS256"}', "must be a JSON array"),
    ('[{"algorithm": "HS512", "key": "%s"}]' % SECRET, "algorithm must be HS256 or RS256"),
    ('[{"algorithm": "HS256", "key": "short-secret"}]', "at least 32 bytes"),
    ('[{"algorithm": "RS256", "key": "short-secret"}]', "public key in PEM"),
    ('[{"algorithm": "HS256", "key": "%s", "kidd": "x"}]' % SECRET, "unknown fields"),
])
def test_bad_key_settings_fail_at_start_without_quoting_the_key(monkeypatch, value, message):
    monkeypatch.setenv("ACEH_RAG_AUTH__JWT_KEYS", value)
    with pytest.raises(ConfigError, match=message) as info:
        load_settings()
    assert SECRET not in str(info.value) and "short-secret" not in str(info.value)


def test_a_private_key_is_refused_as_rs256_key(monkeypatch, rsa_private):
    pem = rsa_private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()).decode()
    monkeypatch.setenv("ACEH_RAG_AUTH__JWT_KEYS", json.dumps([{"algorithm": "RS256", "key": pem}]))
    with pytest.raises(ConfigError, match="never the private key"):
        load_settings()


# --- admin ------------------------------------------------------------------------------------


def test_admin_pages_render_without_showing_secrets(admin_client, rsa_private):
    stored = PartnerJwtKey.objects.create(name="bappeda", kid="k1", algorithm="HS256", key=SECRET, issuer="https://a")
    PartnerJwtKey.objects.create(name="diskominsa", algorithm="RS256", key=public_pem(rsa_private))
    changelist = admin_client.get("/admin/acehrag/partnerjwtkey/?active__exact=1&algorithm=HS256")
    add = admin_client.get("/admin/acehrag/partnerjwtkey/add/")
    change = admin_client.get(f"/admin/acehrag/partnerjwtkey/{stored.pk}/change/")
    assert (changelist.status_code, add.status_code, change.status_code) == (200, 200, 200)
    assert b"bappeda" in changelist.content and stored.fingerprint.encode() in changelist.content
    assert SECRET.encode() not in changelist.content and SECRET.encode() not in change.content


def form_data(**values) -> dict:
    data = {"name": "dinkes", "kid": "", "algorithm": "HS256", "secret": OTHER_SECRET, "key": "", "issuer": "",
            "audience": "", "active": "on"}
    data.update(values)
    return data


def test_admin_adds_and_edits_keys(admin_client):
    admin_client.post("/admin/acehrag/partnerjwtkey/add/", form_data(), follow=True)
    stored = PartnerJwtKey.objects.get(name="dinkes")
    assert stored.key == OTHER_SECRET
    # A blank secret on the change form keeps the stored secret.
    admin_client.post(f"/admin/acehrag/partnerjwtkey/{stored.pk}/change/", form_data(secret="", issuer="https://d"))
    stored.refresh_from_db()
    assert (stored.key, stored.issuer) == (OTHER_SECRET, "https://d")


@pytest.mark.parametrize("values,message", [
    ({"secret": "short"}, b"at least 32 bytes"),
    ({"secret": ""}, b"A shared secret or a public key is required."),
    ({"algorithm": "RS256"}, b"public key in PEM"),
])
def test_admin_refuses_unusable_keys(admin_client, values, message):
    response = admin_client.post("/admin/acehrag/partnerjwtkey/add/", form_data(**values))
    assert response.status_code == 200 and message in response.content
    assert not PartnerJwtKey.objects.exists()


def test_admin_key_form_defaults_to_hs256_and_never_shows_the_secret(admin_client):
    # Given the empty add form, HS256 is chosen and the secret is a password field.
    add = admin_client.get("/admin/acehrag/partnerjwtkey/add/").content.decode()
    assert '<option value="HS256" selected>' in add
    assert 'type="password" name="secret"' in add
    # When a save fails for another reason, the typed secret is not sent back in the page.
    response = admin_client.post("/admin/acehrag/partnerjwtkey/add/", form_data(name=""))
    assert response.status_code == 200 and OTHER_SECRET.encode() not in response.content
    # A first save with only a name and a secret works.
    data = {"name": "bpkd", "secret": OTHER_SECRET, "active": "on", "algorithm": "HS256"}
    admin_client.post("/admin/acehrag/partnerjwtkey/add/", data)
    assert PartnerJwtKey.objects.get(name="bpkd").key == OTHER_SECRET


def test_admin_kids_are_unique(admin_client):
    PartnerJwtKey.objects.create(name="a", kid="k1", algorithm="HS256", key=SECRET)
    response = admin_client.post("/admin/acehrag/partnerjwtkey/add/", form_data(kid="k1"))
    assert response.status_code == 200 and PartnerJwtKey.objects.count() == 1
