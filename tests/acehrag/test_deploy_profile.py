"""The production profile: `check --deploy` passes, HTTPS is enforced behind the proxy, pages carry a CSP.

Each case runs Django in a subprocess under ``ACEH_RAG_PRODUCTION=true`` with a
real secret key, as the image starts it (settings are read once per process).
"""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PROBE = r"""
import json, django
django.setup()
from django.test import Client
client = Client()
def seen(path, **headers):
    response = client.get(path, **headers)
    return {"status": response.status_code, "location": response.get("Location"),
            "hsts": response.get("Strict-Transport-Security"), "csp": response.get("Content-Security-Policy"),
            "frame": response.get("X-Frame-Options"), "body": response.content.decode(errors="replace")[:20000]}
https = {"HTTP_X_FORWARDED_PROTO": "https"}
print(json.dumps({"plain": seen("/admin/login/"), "health": seen("/healthz"),
                  "admin": seen("/admin/login/", **https), "widget": seen("/widget", **https),
                  "docs": seen("/docs", **https)}))
"""


def production_env(tmp_path, **overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACEH_RAG_", "DJANGO_")) and k != "DATABASE_URL"}
    env.update(DJANGO_SETTINGS_MODULE="acehrag.settings", ACEH_RAG_PRODUCTION="true",
               DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DJANGO_ALLOWED_HOSTS="rag.example.go.id,testserver",
               DJANGO_CSRF_TRUSTED_ORIGINS="https://rag.example.go.id", ACEH_RAG_API__KEYS="deploy-key",
               ACEH_RAG_DATA_DIR=str(tmp_path / "data"), ACEH_RAG_EMBEDDING__BACKEND="hashing")
    env.update(overrides)
    return env


def deploy_check(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_check_deploy_passes_under_the_production_profile(tmp_path):
    result = deploy_check(production_env(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_fails_without_the_profile_so_the_check_is_real(tmp_path):
    env = production_env(tmp_path)
    env.pop("ACEH_RAG_PRODUCTION")
    result = deploy_check(env)
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout


def test_a_protection_turned_off_on_purpose_is_a_decision_not_a_warning(tmp_path):
    # The proxy redirects to HTTPS itself: the process does not, and the check does not warn about it.
    result = deploy_check(production_env(tmp_path, ACEH_RAG_SECURITY__SSL_REDIRECT="false"))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    env = production_env(tmp_path_factory.mktemp("deploy"))
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_plain_http_is_redirected_but_probes_are_not(pages):
    assert pages["plain"]["status"] == 301 and pages["plain"]["location"] == "https://testserver/admin/login/"
    assert pages["health"]["status"] == 200


def test_https_through_the_proxy_is_served_with_hsts_and_no_framing(pages):
    admin = pages["admin"]
    assert admin["status"] == 200 and admin["hsts"] == "max-age=31536000; includeSubDomains"
    assert admin["frame"] == "DENY"


def test_admin_and_widget_pages_carry_a_csp_whose_nonce_is_the_inline_script_s(pages):
    for page in (pages["admin"], pages["widget"]):
        csp = page["csp"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
        assert "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
    widget_csp = pages["widget"]["csp"]
    nonce = widget_csp.split("'nonce-")[1].split("'")[0]
    assert f'<script nonce="{nonce}">' in pages["widget"]["body"]
    # Swagger's own bundle is left without a policy.
    assert pages["docs"]["csp"] is None
